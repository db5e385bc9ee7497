package loop

import (
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/client"
	"github.com/muthuishere/toolnexus-conformance/steps/contract"
)

// World is the steps' view of an attempt in this area: the contract's (toolkits, host
// tools), through which the llm area's client and fake LLM are reached.
type World struct{ contract.World }

func (w *World) client() *client.State { return client.Of(w.A) }

// Area is the unified client loop, C9 (README.md beside this file). It adds no op: the loop
// is client.run, whose result fields (status, limit, usage, toolCallCount) the llm area's
// protocol fragment declares.
func Area() kernel.Area {
	return kernel.Area{Name: "loop", Register: registerLoopSteps}
}
