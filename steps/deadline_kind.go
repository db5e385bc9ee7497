package steps

import (
	"github.com/muthuishere/toolnexus-conformance/internal/ports"

	"errors"
	"fmt"
)

// facts is this port's runners/<port>/facts.json, handed by the runner; a port folder without
// one cannot be judged on what the facts decide: a harness error naming the file, never a guess.
func (w *World) facts() (*ports.Facts, error) {
	if w.env().Facts == nil {
		why := w.env().FactsErr
		if why == nil {
			why = errors.New("no facts were loaded")
		}
		return nil, fmt.Errorf("harness: %w", why)
	}
	return w.env().Facts, nil
}

// callFailsWithDeadline expects this port's deadline error: `deadline`, or `cancelled` where
// the port's facts pin that the library has no deadline type (G3.3).
func (w *World) callFailsWithDeadline() error {
	f, err := w.facts()
	if err != nil {
		return err
	}
	kind, fact := f.Deadline.Kind, f.Deadline.Fact
	if err := w.callFailsWith(kind); err != nil {
		return fmt.Errorf("%w (this port's deadline error is %q: %s)", err, kind, fact)
	}
	return nil
}
