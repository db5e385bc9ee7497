package parity

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/client"

	"github.com/muthuishere/toolnexus-conformance/internal/wire"
)

func registerBaselineSteps(sc *kernel.Steps) {
	sc.Step(`^the wire bodies match the baseline release's "([^"]*)"$`, (*World).matchBaseline)
}

// matchBaseline is catalogue X.3: with no new option set, a port's bodies equal those of a
// named earlier release of the same port. Without a baseline for this port the scenario is
// not judged (unsupported, with the reason): it must never pass by default.
func (w *World) matchBaseline(name string) error {
	b := w.Env().Baseline
	port := w.Env().Family
	if b.Impl == "" {
		return &kernel.Unsupported{Op: "X.3", Message: "not run: no baseline (name one with --baseline <port>@<release>)"}
	}
	if port != b.Port {
		return &kernel.Unsupported{Op: "X.3", Message: fmt.Sprintf("not run: the baseline %s is not a release of %s", b.Impl, port)}
	}
	bodies, err := client.Bodies(w.A)
	if err != nil {
		return err
	}
	got := wire.NormalizeAll(bodies)
	path := filepath.Join(b.Dir, name+".json")
	if b.Record {
		out, _ := json.MarshalIndent(got, "", "  ")
		if err := os.MkdirAll(b.Dir, 0o755); err != nil {
			return err
		}
		return os.WriteFile(path, append(out, '\n'), 0o644)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return &kernel.Unsupported{Op: "X.3", Message: fmt.Sprintf("not run: the baseline %s recorded no bodies for %q (was it present?)", b.Impl, name)}
	}
	var want []map[string]any
	if err := json.Unmarshal(raw, &want); err != nil {
		return fmt.Errorf("harness: baseline bodies %s: %v", path, err)
	}
	if d := kernel.DiffOf(wire.NormalizeAll(want), got); d != nil {
		return fmt.Errorf("release over release: with no new option the wire bodies differ from %s's (-%s +%s):\n%w",
			b.Impl, b.Impl, w.Env().Port, d)
	}
	return nil
}
