package translate

import (
	_ "embed"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/client"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

// World is the steps' view of an attempt in this area; the client and the fake LLM are the
// llm area's, the hooks the llm and hooks areas'.
type World struct{ common.View }

func (w *World) client() *client.State { return client.Of(w.A) }
func (w *World) tr() *State            { return kernel.Get[State](w.A) }

// State is the results of the scenario's translates, in order.
type State struct{ results []map[string]any }

func (s *State) Init(*kernel.Attempt) { s.results = nil }

// Area is single-turn translate, C15.1-C15.16 (README.md beside this file).
func Area() kernel.Area {
	return kernel.Area{Name: "translate", Protocol: protocol, Register: registerTranslateSteps}
}

// protocol is the area's protocol fragment.
//
//go:embed protocol.json
var protocol []byte
