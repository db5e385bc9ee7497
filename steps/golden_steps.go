package steps

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/google/go-cmp/cmp"

	"github.com/muthuishere/toolnexus-conformance/internal/wire"
)

func (w *World) registerGoldenSteps(sc stepAdder) {
	sc.Step(`^the wire bodies match the golden copy "([^"]*)"$`, w.matchGolden)
	sc.Step(`^the inventory matches the golden copy "([^"]*)"$`, w.inventoryMatchesGolden)
}

// inventoryMatchesGolden compares this port's list-only inventory (names, descriptions,
// input schemas as returned, status) with the Go reference's (catalogue X.2). Listing order
// is not part of the contract, so each server's tools are sorted by name.
func (w *World) inventoryMatchesGolden(name string) error {
	w.golden = name
	r, err := w.okResult()
	if err != nil {
		return err
	}
	got := wire.NormalizeInventory(r)
	path := filepath.Join(w.env.Root, "fixtures", "golden", name+".json")
	if w.env.UpdateGolden {
		b, _ := json.MarshalIndent(got, "", "  ")
		return os.WriteFile(path, append(b, '\n'), 0o644)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("harness: no golden copy %s (record it with `conformance golden`): %v", path, err)
	}
	var want map[string]any
	if err := json.Unmarshal(b, &want); err != nil {
		return fmt.Errorf("harness: golden copy %s is not a JSON object: %v", path, err)
	}
	if d := cmp.Diff(wire.NormalizeInventory(want), got); d != "" {
		return fmt.Errorf("parity: the inventory differs from the Go reference's golden copy %q (-reference +%s):\n%s", name, w.env.Port, d)
	}
	return nil
}

// matchGolden compares this port's normalised bodies with the Go reference's (catalogue X.1).
func (w *World) matchGolden(name string) error {
	w.golden = name
	bodies, err := w.bodies()
	if err != nil {
		return err
	}
	got := wire.NormalizeAll(bodies)
	path := filepath.Join(w.env.Root, "fixtures", "golden", name+".json")
	if w.env.UpdateGolden {
		b, _ := json.MarshalIndent(got, "", "  ")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		return os.WriteFile(path, append(b, '\n'), 0o644)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("harness: no golden copy %s (record it with `conformance golden`): %v", path, err)
	}
	var want []map[string]any
	if err := json.Unmarshal(b, &want); err != nil {
		return fmt.Errorf("harness: golden copy %s is not a JSON list of bodies: %v", path, err)
	}
	if d := cmp.Diff(wire.NormalizeAll(want), got); d != "" {
		return fmt.Errorf("parity: the wire bodies differ from the Go reference's golden copy %q (-reference +%s):\n%s", name, w.env.Port, d)
	}
	return nil
}

func readFixture(root, name string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(root, "fixtures", name))
	if err != nil {
		return nil, fmt.Errorf("harness: fixture %s: %w", name, err)
	}
	return b, nil
}
