package suspension

import (
	_ "embed"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/client"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

// World is the steps' view of an attempt in this area; the client, its runs and the fake
// LLM are the llm area's.
type World struct{ common.View }

func (w *World) client() *client.State { return client.Of(w.A) }
func (w *World) sp() *State            { return kernel.Get[State](w.A) }

// Area is suspension, C14.1-C14.11 (README.md beside this file).
func Area() kernel.Area {
	return kernel.Area{
		Name:     "suspension",
		Protocol: protocol,
		Register: registerSuspensionSteps,
		Slots:    map[string]kernel.SlotFunc{"waitFor": slotWaitFor, "tool": slotTool},
	}
}

// protocol is the area's protocol fragment.
//
//go:embed protocol.json
var protocol []byte
