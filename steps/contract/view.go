package contract

import (
	_ "embed"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/client"
	"github.com/muthuishere/toolnexus-conformance/steps/mcp"
)

// World is the steps' view of an attempt in this area.
type World struct{ mcp.World }

func (w *World) client() *client.State { return client.Of(w.A) }
func (w *World) mcp() *mcp.State       { return mcp.Of(w.A) }
func (w *World) ct() *State            { return kernel.Get[State](w.A) }

// Area is the shared contract's tools (README.md beside this file).
func Area() kernel.Area {
	return kernel.Area{
		Name:     "contract",
		Protocol: protocol,
		Register: func(t *kernel.Steps) {
			registerContractToolSteps(t)
			registerHostRanSteps(t)
			registerContractRunSteps(t)
			registerContractAdapterSteps(t)
			registerContractConfigSteps(t)
			registerContractMCPSteps(t)
			registerContractHTTPSteps(t)
			registerContractServerSteps(t)
			registerContractBuiltinSteps(t)
		},
		Slots: map[string]kernel.SlotFunc{"tool": slotTool},
	}
}

// protocol is the area's protocol fragment.
//
//go:embed protocol.json
var protocol []byte
