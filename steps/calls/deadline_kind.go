package calls

import (
	_ "embed"
	"fmt"

	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

// facts is the area's part of a port's facts.json: "deadline".
//
//go:embed facts.json
var facts []byte

// deadlineFact is the error kind a caller gets when its deadline passes: a library with one
// cancellation handle and no deadline type reports its cancellation (SPEC.md §3's table).
type deadlineFact struct {
	Kind string `json:"kind"` // "deadline" or "cancelled"
	Fact string `json:"fact"`
}

// callFailsWithDeadline expects this port's deadline error: `deadline`, or `cancelled` where
// the port's facts pin that the library has no deadline type (G3.3).
func (w *World) callFailsWithDeadline() error {
	var d deadlineFact
	if _, err := common.Fact(w.A, "deadline", &d); err != nil {
		return err
	}
	if err := w.callFailsWith(d.Kind); err != nil {
		return fmt.Errorf("%w (this port's deadline error is %q: %s)", err, d.Kind, d.Fact)
	}
	return nil
}
