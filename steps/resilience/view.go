package resilience

import (
	_ "embed"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/client"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

// World is the steps' view of an attempt in this area; the client and the fake LLM are the
// llm area's.
type World struct{ common.View }

func (w *World) client() *client.State { return client.Of(w.A) }
func (w *World) rs() *State            { return kernel.Get[State](w.A) }

// Area is resilience, C12.1-C12.18 (README.md beside this file).
func Area() kernel.Area {
	return kernel.Area{
		Name:     "resilience",
		Protocol: protocol,
		Facts:    facts,
		Register: registerResilienceSteps,
		Slots:    map[string]kernel.SlotFunc{"onError": slotOnError},
	}
}

// protocol is the area's protocol fragment.
//
//go:embed protocol.json
var protocol []byte
