package skills

import "github.com/muthuishere/toolnexus-conformance/internal/kernel"

// State is the scenario's skills trees (written under the attempt's directory), what the
// next toolkit is built with, and the last prompt and inventory the port returned.
type State struct {
	parent string   // <attempt dir>/skills: every tree of the scenario and its outside/
	roots  []string // the roots the toolkit searches, in order
	prompt *string
	listed map[string]any
}

func (s *State) Init(*kernel.Attempt) {}
