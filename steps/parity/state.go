package parity

import (
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// State is the golden copy a parity step compared against.
type State struct{ golden string }

func (s *State) Init(*kernel.Attempt) {}

func (s *State) Evidence(o *result.Outcome) { o.Golden = s.golden }
