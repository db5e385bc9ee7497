package contract

import (
	"fmt"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
	"github.com/muthuishere/toolnexus-conformance/steps/parity"
)

// Steps on the three schema adapters (contract C5).
func registerContractAdapterSteps(sc *kernel.Steps) {
	sc.Step(`^every openai entry has exactly the keys type and function, and its function exactly name, description and parameters$`, (*World).openaiShape)
	sc.Step(`^every anthropic entry has exactly the keys name, description and input_schema$`, (*World).anthropicShape)
	sc.Step(`^the gemini output is one element whose only key is functionDeclarations, each with exactly name, description and parameters$`, (*World).geminiShape)
	sc.Step(`^the gemini output is exactly (.+)$`, (*World).geminiExactly)
	sc.Step(`^each adapter's schema equals the described input schema of the same tool$`, (*World).adapterSchemasMatch)
	sc.Step(`^the tool order is (.+) in the description and in all three adapters$`, (*World).toolOrderEverywhere)
	sc.Step(`^the schema adapters match the golden copy "([^"]*)"$`, (*World).adaptersMatchGolden)
	sc.Step(`^the returned values match the golden copy "([^"]*)"$`, (*World).returnedMatchGolden)
}

func (w *World) adapterList(style string) ([]map[string]any, error) {
	if w.ct().rendered == nil {
		return nil, fmt.Errorf("harness: the schema adapters were not rendered")
	}
	list, ok := w.ct().rendered[style].([]any)
	if !ok {
		return nil, fmt.Errorf("adapters returned %s for %s; want a list", common.CompactJSON(w.ct().rendered[style]), style)
	}
	out := []map[string]any{}
	for i, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s entry %d is %s; want an object", style, i, common.CompactJSON(v))
		}
		out = append(out, m)
	}
	return out, nil
}

func (w *World) openaiShape() error {
	list, err := w.adapterList("openai")
	if err != nil {
		return err
	}
	for i, e := range list {
		if err := common.ExactKeys(fmt.Sprintf("openai entry %d", i), e, "type", "function"); err != nil {
			return err
		}
		if e["type"] != "function" {
			return fmt.Errorf("openai entry %d has type %s; want \"function\"", i, common.CompactJSON(e["type"]))
		}
		fn, _ := e["function"].(map[string]any)
		if err := common.ExactKeys(fmt.Sprintf("openai entry %d's function", i), fn, "name", "description", "parameters"); err != nil {
			return err
		}
	}
	return nil
}

func (w *World) anthropicShape() error {
	list, err := w.adapterList("anthropic")
	if err != nil {
		return err
	}
	for i, e := range list {
		if err := common.ExactKeys(fmt.Sprintf("anthropic entry %d", i), e, "name", "description", "input_schema"); err != nil {
			return err
		}
	}
	return nil
}

// geminiDecls is the one element's functionDeclarations.
func (w *World) geminiDecls() ([]map[string]any, error) {
	list, err := w.adapterList("gemini")
	if err != nil {
		return nil, err
	}
	if len(list) != 1 {
		return nil, fmt.Errorf("gemini output has %d elements; want exactly one: %s", len(list), common.CompactJSON(w.ct().rendered["gemini"]))
	}
	if err := common.ExactKeys("the gemini element", list[0], "functionDeclarations"); err != nil {
		return nil, err
	}
	decls, ok := list[0]["functionDeclarations"].([]any)
	if !ok {
		return nil, fmt.Errorf("functionDeclarations is %s; want a list", common.CompactJSON(list[0]["functionDeclarations"]))
	}
	out := []map[string]any{}
	for _, d := range decls {
		m, _ := d.(map[string]any)
		out = append(out, m)
	}
	return out, nil
}

func (w *World) geminiShape() error {
	decls, err := w.geminiDecls()
	if err != nil {
		return err
	}
	tools, err := w.describedTools()
	if err != nil {
		return err
	}
	if len(decls) != len(tools) {
		return fmt.Errorf("gemini declares %d functions; the toolkit has %d tools", len(decls), len(tools))
	}
	for i, d := range decls {
		if err := common.ExactKeys(fmt.Sprintf("gemini declaration %d", i), d, "name", "description", "parameters"); err != nil {
			return err
		}
	}
	return nil
}

func (w *World) geminiExactly(raw string) error {
	if w.ct().rendered == nil {
		return fmt.Errorf("harness: the schema adapters were not rendered")
	}
	return common.SameJSON("the gemini output", raw, w.ct().rendered["gemini"])
}

// adapterEntries gives, per adapter, each entry's name and schema in order.
func (w *World) adapterEntries() (map[string][][2]any, error) {
	out := map[string][][2]any{}
	oa, err := w.adapterList("openai")
	if err != nil {
		return nil, err
	}
	for _, e := range oa {
		fn, _ := e["function"].(map[string]any)
		out["openai"] = append(out["openai"], [2]any{fn["name"], fn["parameters"]})
	}
	an, err := w.adapterList("anthropic")
	if err != nil {
		return nil, err
	}
	for _, e := range an {
		out["anthropic"] = append(out["anthropic"], [2]any{e["name"], e["input_schema"]})
	}
	decls, err := w.geminiDecls()
	if err != nil {
		return nil, err
	}
	for _, d := range decls {
		out["gemini"] = append(out["gemini"], [2]any{d["name"], d["parameters"]})
	}
	return out, nil
}

func (w *World) adapterSchemasMatch() error {
	tools, err := w.describedTools()
	if err != nil {
		return err
	}
	schemas := map[string]any{}
	for _, t := range tools {
		schemas[fmt.Sprint(t["name"])] = t["inputSchema"]
	}
	entries, err := w.adapterEntries()
	if err != nil {
		return err
	}
	for _, style := range []string{"openai", "anthropic", "gemini"} {
		for _, e := range entries[style] {
			name := fmt.Sprint(e[0])
			want, ok := schemas[name]
			if !ok {
				return fmt.Errorf("%s has a tool %q the toolkit does not describe", style, name)
			}
			if d := kernel.DiffOf(want, e[1]); d != nil {
				return fmt.Errorf("%s's schema for %q differs from the described input schema (-described +%s):\n%w", style, name, style, d)
			}
		}
	}
	return nil
}

func (w *World) toolOrderEverywhere(list string) error {
	want := common.SplitList(list)
	tools, err := w.describedTools()
	if err != nil {
		return err
	}
	var described []string
	for _, t := range tools {
		described = append(described, fmt.Sprint(t["name"]))
	}
	if d := kernel.DiffOf(want, described); d != nil {
		return fmt.Errorf("the described tool order differs (-want +got):\n%w", d)
	}
	entries, err := w.adapterEntries()
	if err != nil {
		return err
	}
	for _, style := range []string{"openai", "anthropic", "gemini"} {
		var got []string
		for _, e := range entries[style] {
			got = append(got, fmt.Sprint(e[0]))
		}
		if d := kernel.DiffOf(want, got); d != nil {
			return fmt.Errorf("the %s tool order differs (-want +got):\n%w", style, d)
		}
	}
	return nil
}

// adaptersMatchGolden compares the three adapter outputs with the reference's (C5.7): the
// order of tools counts, key order inside objects does not.
func (w *World) adaptersMatchGolden(name string) error {
	if w.ct().rendered == nil {
		return fmt.Errorf("harness: the schema adapters were not rendered")
	}
	return w.matchGoldenValue(name, "the adapter outputs differ", w.ct().rendered)
}

// returnedMatchGolden compares the scenario's returned values with the reference's (X.4),
// in order; key order inside objects does not count, byte-exact strings do.
func (w *World) returnedMatchGolden(name string) error {
	return w.matchGoldenValue(name, "the returned values differ", parity.ReturnedValues(w.A.Responses()))
}

// matchGoldenValue compares a value with the reference's golden copy, numbers by their JSON
// text.
func (w *World) matchGoldenValue(name, what string, v any) error {
	got := common.NumbersAsText(v)
	var want any
	if done, err := kernel.Get[parity.World](w.A).GoldenCopy(name, got, &want); done || err != nil {
		return err
	}
	return parity.Diff(what, name, w.Env().Family, common.NumbersAsText(want), got)
}
