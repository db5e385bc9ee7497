package memory

import (
	_ "embed"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/client"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

// World is the steps' view of an attempt in this area; the client, its runs and the fake
// LLM are the llm area's, the store accessor the store area's op.
type World struct{ common.View }

func (w *World) client() *client.State { return client.Of(w.A) }
func (w *World) mem() *State           { return kernel.Get[State](w.A) }

// Area is conversation memory, C12.19-C12.23 (README.md beside this file).
func Area() kernel.Area {
	return kernel.Area{Name: "memory", Protocol: protocol, Register: registerMemorySteps}
}

// protocol is the area's protocol fragment.
//
//go:embed protocol.json
var protocol []byte
