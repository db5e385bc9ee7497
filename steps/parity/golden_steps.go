package parity

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/muthuishere/toolnexus-conformance/steps/client"
	"github.com/muthuishere/toolnexus-conformance/steps/common"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"

	"github.com/muthuishere/toolnexus-conformance/internal/wire"
)

func registerGoldenSteps(sc *kernel.Steps) {
	sc.Step(`^the wire bodies match the golden copy "([^"]*)"$`, (*World).matchGolden)
	sc.Step(`^the inventory matches the golden copy "([^"]*)"$`, (*World).inventoryMatchesGolden)
}

// inventoryMatchesGolden compares this port's list-only inventory (names, descriptions,
// input schemas as returned, status) with the Go reference's (catalogue X.2). Listing order
// is not part of the contract, so each server's tools are sorted by name.
func (w *World) inventoryMatchesGolden(name string) error {
	r, err := common.OKResult(w.A)
	if err != nil {
		return err
	}
	got := wire.NormalizeInventory(r)
	var want map[string]any
	if done, err := w.GoldenCopy(name, got, &want); done || err != nil {
		return err
	}
	return Diff("the inventory differs", name, w.Env().Family, wire.NormalizeInventory(want), got)
}

// matchGolden compares this port's normalised bodies with the Go reference's (catalogue X.1).
func (w *World) matchGolden(name string) error {
	bodies, err := client.Bodies(w.A)
	if err != nil {
		return err
	}
	got := wire.NormalizeAll(bodies)
	var want []map[string]any
	if done, err := w.GoldenCopy(name, got, &want); done || err != nil {
		return err
	}
	return Diff("the wire bodies differ", name, w.Env().Family, wire.NormalizeAll(want), got)
}

// GoldenCopy reads the reference's golden copy fixtures/<area>/golden/<name>.json (the area
// whose feature names it) into want, or, when the run updates the golden copies, records got
// there instead (done: nothing to compare).
func (w *World) GoldenCopy(name string, got, want any) (done bool, err error) {
	w.parity().golden = name
	path := filepath.Join(w.Env().Root, "fixtures", w.A.Folder(), "golden", name+".json")
	if w.Env().UpdateGolden {
		b, _ := json.MarshalIndent(got, "", "  ")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return true, err
		}
		return true, os.WriteFile(path, append(b, '\n'), 0o644)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return false, fmt.Errorf("harness: no golden copy %s (record it with `conformance golden`): %v", path, err)
	}
	if err := json.Unmarshal(b, want); err != nil {
		return false, fmt.Errorf("harness: golden copy %s does not hold %T: %v", path, want, err)
	}
	return false, nil
}

// Diff is the X.* verdict: the port's value against the reference's, by content.
// port is the column's family (python, not python@0.21.0): the evidence, and so its
// fingerprint, must not depend on how a run named the column.
func Diff(what, name, port string, want, got any) error {
	if d := kernel.DiffOf(want, got); d != nil {
		return fmt.Errorf("parity: %s from the Go reference's golden copy %q (-reference +%s):\n%w", what, name, port, d)
	}
	return nil
}
