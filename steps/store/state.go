package store

import "github.com/muthuishere/toolnexus-conformance/internal/kernel"

// State is the conversation store's last store.get result.
type State struct{ stored map[string]any }

func (s *State) Init(*kernel.Attempt) {}
