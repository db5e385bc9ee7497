package steps

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/wire"
)

// Baseline names the earlier release X.3 compares a port's bodies with (`--baseline
// python@0.8.0`) and where that release's bodies are kept. The run records them first, with
// Record set, on the baseline release alone; then every implementation of the same port
// compares its own bodies with them.
type Baseline struct {
	Impl   string // e.g. python@0.8.0
	Dir    string // one <name>.json list of bodies per compared request
	Record bool
}

// Port is the port the baseline is a release of ("python" for python@0.8.0).
func (b Baseline) Port() string { p, _, _ := strings.Cut(b.Impl, "@"); return p }

func (w *World) registerBaselineSteps(sc stepAdder) {
	sc.Step(`^the wire bodies match the baseline release's "([^"]*)"$`, w.matchBaseline)
}

// matchBaseline is catalogue X.3: with no new option set, a port's bodies equal those of a
// named earlier release of the same port. Without a baseline for this port the scenario is
// not judged (unsupported, with the reason): it must never pass by default.
func (w *World) matchBaseline(name string) error {
	b := w.env.Baseline
	port, _, _ := strings.Cut(w.env.Port, "@")
	if b.Impl == "" {
		return &Unsupported{Op: "X.3", Message: "not run: no baseline (name one with --baseline <port>@<release>)"}
	}
	if port != b.Port() {
		return &Unsupported{Op: "X.3", Message: fmt.Sprintf("not run: the baseline %s is not a release of %s", b.Impl, port)}
	}
	bodies, err := w.bodies()
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
		return &Unsupported{Op: "X.3", Message: fmt.Sprintf("not run: the baseline %s recorded no bodies for %q (was it present?)", b.Impl, name)}
	}
	var want []map[string]any
	if err := json.Unmarshal(raw, &want); err != nil {
		return fmt.Errorf("harness: baseline bodies %s: %v", path, err)
	}
	if d := diffOf(wire.NormalizeAll(want), got); d != nil {
		return fmt.Errorf("release over release: with no new option the wire bodies differ from %s's (-%s +%s):\n%w",
			b.Impl, b.Impl, w.env.Port, d)
	}
	return nil
}
