package memory

import "github.com/muthuishere/toolnexus-conformance/internal/kernel"

// State is the scenario's conversation object, once created.
type State struct{ conversation string }

func (s *State) Init(*kernel.Attempt) {}
