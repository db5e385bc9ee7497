package hooks

import (
	_ "embed"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/client"
	"github.com/muthuishere/toolnexus-conformance/steps/contract"
)

// World is the steps' view of an attempt in this area: the contract's (toolkits, host tools),
// through which the llm area's client and fake LLM are reached.
type World struct{ contract.World }

func (w *World) client() *client.State { return client.Of(w.A) }
func (w *World) hk() *State            { return kernel.Get[State](w.A) }

// Area is the loop's hooks, C10 (README.md beside this file).
func Area() kernel.Area {
	return kernel.Area{
		Name:     "hooks",
		Protocol: protocol,
		Register: registerHooksSteps,
		Slots:    map[string]kernel.SlotFunc{"afterLLM": slotAfterLLM, "beforeTool": slotBeforeTool, "afterTool": slotAfterTool},
	}
}

// protocol is the area's protocol fragment.
//
//go:embed protocol.json
var protocol []byte
