package llm

import (
	"fmt"

	"github.com/muthuishere/toolnexus-conformance/steps/common"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
)

// exactPreChangeKeys checks every recorded body against this port's own pre-change key set
// for path, e.g. "anthropic stream" (G1.4): a port is judged against the keys it sent before
// the change, not against another port's.
func (w *World) exactPreChangeKeys(path string) error {
	f, err := common.Facts(w.A)
	if err != nil {
		return err
	}
	want, ok := f.KeysFor(path)
	if !ok {
		return fmt.Errorf("harness: %s has no %q path", f.File, path)
	}
	bodies, err := w.bodies()
	if err != nil {
		return err
	}
	for i, b := range bodies {
		if d := kernel.DiffOf(want, common.KeysOf(b)); d != nil {
			return fmt.Errorf("LLM request %d key set differs from %s's pre-change %s keys (%s) (-want +got):\n%w",
				i+1, f.Port, path, f.PreChangeKeys.Fact, d)
		}
	}
	return nil
}
