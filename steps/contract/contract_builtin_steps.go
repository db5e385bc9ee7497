package contract

import (
	"fmt"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

// Steps for the built-in tools as one source among the others (SPEC.md §7 toolkit.create
// `builtins`): C2.9 judges how a collision with a builtin is settled, so it first proves the
// port has that builtin at all.
func registerContractBuiltinSteps(sc *kernel.Steps) {
	sc.Step(`^the built-in tools are on$`, (*World).builtinsOn)
	sc.Step(`^a toolkit with only the built-in tools has a built-in "([^"]*)"$`, (*World).hasBuiltin)
	sc.Step(`^the described tool "([^"]*)" has source "([^"]*)"$`, (*World).describedSource)
}

func (w *World) builtinsOn() error {
	w.ct().builtins = true
	return nil
}

// hasBuiltin builds a second toolkit with the builtins on and nothing else. A port that cannot
// build it, or has no builtin of that name, leaves no collision to judge: inconclusive (the
// built-in tools' own claims, C13, judge those faults), and final, since what a toolkit
// lists does not depend on the machine's load.
func (w *World) hasBuiltin(name string) error {
	h := w.Handle("b")
	r, err := w.Call("toolkit.create", map[string]any{"handle": h, "builtins": true})
	if err != nil {
		return err
	}
	if !r.OK {
		return &kernel.Inconclusive{Why: fmt.Sprintf("a toolkit with the built-in tools on could not be built (%s: %s), so no builtin %q exists to collide with", r.Error.Kind, r.Error.Message, name), Final: true}
	}
	w.TK().All = append(w.TK().All, h)
	d, err := w.Must("toolkit.describe", map[string]any{"toolkit": h})
	if err != nil {
		return err
	}
	list, _ := d["tools"].([]any)
	var seen []string
	for _, v := range list {
		t, _ := v.(map[string]any)
		seen = append(seen, fmt.Sprintf("%v (%v)", t["name"], t["source"]))
		if t["name"] == name && t["source"] == "builtin" {
			return nil
		}
	}
	return &kernel.Inconclusive{Why: fmt.Sprintf("with only the built-in tools on, the toolkit has no builtin %q (it has: %s), so there is no collision to judge", name, strings.Join(seen, ", ")), Final: true}
}

func (w *World) describedSource(name, source string) error {
	t, err := w.describedTool(name)
	if err != nil {
		return err
	}
	if t["source"] != source {
		return fmt.Errorf("the tool %q has source %v; want %q", name, common.CompactJSON(t["source"]), source)
	}
	return nil
}
