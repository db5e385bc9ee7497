package llm

import (
	_ "embed"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/client"
)

// World is the steps' view of an attempt in this area: the client's, with request shaping.
type World struct{ client.World }

func (w *World) llm() *State { return Of(w.A) }

// Of is the attempt's request-shaping state.
func Of(a *kernel.Attempt) *State { return kernel.Get[State](a) }

// Area is request shaping on the LLM wire (README.md beside this file).
func Area() kernel.Area {
	return kernel.Area{
		Name:     "llm",
		Protocol: protocol,
		Facts:    facts,
		Register: func(t *kernel.Steps) {
			registerShapingSteps(t)
			registerBodySteps(t)
		},
		Slots: map[string]kernel.SlotFunc{"bodyTransform": slotBodyTransform, "beforeLLM": slotBeforeLLM},
	}
}

// protocol is the area's protocol fragment.
//
//go:embed protocol.json
var protocol []byte
