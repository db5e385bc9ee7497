package mcp

import (
	_ "embed"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/client"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

// World is the steps' view of an attempt in this area.
type World struct{ common.View }

func (w *World) client() *client.State { return client.Of(w.A) }
func (w *World) mcp() *State           { return Of(w.A) }
func (w *World) stalls() *Stalls       { return kernel.Get[Stalls](w.A) }

// Of is the attempt's MCP state.
func Of(a *kernel.Attempt) *State { return kernel.Get[State](a) }

// Area is the MCP load, list and teardown (README.md beside this file).
func Area() kernel.Area {
	return kernel.Area{
		Name:     "mcp",
		Protocol: protocol,
		Register: func(t *kernel.Steps) {
			registerMCPSteps(t)
			registerMCPPhaseSteps(t)
			registerTimingSteps(t)
			registerTeardownSteps(t)
		},
		Witness: witness,
		Warm:    warm,
	}
}

// TimingHandlers names the handlers the timing declarations are about, for the test that
// holds every scenario's timing tags to its steps (steps/bounds_test.go).
func TimingHandlers() map[string]any {
	return map[string]any{"within": (*World).callWithin, "within-limit": (*World).callWithinLimit,
		"within-timeout": (*World).withinTimeout, "action": (*World).mcpAction, "stall": (*World).stallingServer,
		"hung stdio": (*World).hungStdioServer, "reach": (*World).sawPhase}
}

// protocol is the area's protocol fragment.
//
//go:embed protocol.json
var protocol []byte
