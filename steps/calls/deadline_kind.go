package calls

import (
	"github.com/muthuishere/toolnexus-conformance/steps/common"

	"fmt"
)

// callFailsWithDeadline expects this port's deadline error: `deadline`, or `cancelled` where
// the port's facts pin that the library has no deadline type (G3.3).
func (w *World) callFailsWithDeadline() error {
	f, err := common.Facts(w.A)
	if err != nil {
		return err
	}
	kind, fact := f.Deadline.Kind, f.Deadline.Fact
	if err := w.callFailsWith(kind); err != nil {
		return fmt.Errorf("%w (this port's deadline error is %q: %s)", err, kind, fact)
	}
	return nil
}
