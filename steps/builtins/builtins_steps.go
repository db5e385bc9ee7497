package builtins

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

// names is upstream SPEC §0.11's list, in §4A's order.
var names = []string{"bash", "read", "write", "edit", "grep", "glob", "webfetch", "question", "apply_patch", "todowrite"}

func registerBuiltinsSteps(sc *kernel.Steps) {
	sc.Step(`^the built-in tools are left to the library's default$`, (*World).leftToDefault)
	sc.Step(`^the built-in tools are set to (.+)$`, (*World).setTo)
	sc.Step(`^the toolkit lists all ten built-in tools, in order$`, (*World).allTen)
	sc.Step(`^the toolkit's built-in tools are, in order, (.+)$`, (*World).builtinsInOrder)
	sc.Step(`^no built-in tool is in the toolkit's description or in any schema adapter$`, (*World).noneAnywhere)
	sc.Step(`^each built-in tool's input schema has the properties, types and required names of upstream SPEC §4A's table$`, (*World).schemasFollowTable)
	sc.Step(`^the toolkit has exactly one "([^"]*)", with source "([^"]*)", after every built-in tool$`, (*World).oneShadow)
}

func (w *World) leftToDefault() error {
	return kernel.SetOption(w.A, "toolkit.create", "builtinsDefault", true)
}

func (w *World) setTo(raw string) error {
	var v any
	if err := common.StepJSON(raw, &v); err != nil {
		return fmt.Errorf("harness: %s is not JSON: %w", raw, err)
	}
	return kernel.SetOption(w.A, "toolkit.create", "builtins", v)
}

// described is the current toolkit's description (built first if the scenario has not).
func (w *World) described() ([]map[string]any, error) {
	if w.TK().Current == "" {
		return nil, fmt.Errorf("harness: the scenario built no toolkit")
	}
	r, err := w.Must("toolkit.describe", map[string]any{"toolkit": w.TK().Current})
	if err != nil {
		return nil, err
	}
	list, ok := r["tools"].([]any)
	if !ok {
		return nil, fmt.Errorf("toolkit.describe returned no tool list: %v", r["tools"])
	}
	var out []map[string]any
	for _, v := range list {
		m, _ := v.(map[string]any)
		out = append(out, m)
	}
	return out, nil
}

// builtinNames are the described tools whose source is "builtin", in order; every tool that
// bears one of the ten names is listed with its source, so a wrong source shows.
func (w *World) builtinNames() ([]string, []string, error) {
	tools, err := w.described()
	if err != nil {
		return nil, nil, err
	}
	var got, all []string
	for _, t := range tools {
		name, _ := t["name"].(string)
		all = append(all, fmt.Sprintf("%s (%v)", name, t["source"]))
		if t["source"] == "builtin" {
			got = append(got, name)
		}
	}
	return got, all, nil
}

func (w *World) allTen() error { return w.builtinsInOrder(strings.Join(names, ", ")) }

func (w *World) builtinsInOrder(list string) error {
	got, all, err := w.builtinNames()
	if err != nil {
		return err
	}
	if want := common.SplitList(list); !slices.Equal(got, want) {
		return fmt.Errorf("the toolkit's built-in tools (source \"builtin\") are %v; want %v. It lists: %s", got, want, strings.Join(all, ", "))
	}
	return nil
}

// noneAnywhere: no tool of the ten names in toolkit.describe, and none in the three schema
// adapters' output (§4A: "none of the ten appear anywhere").
func (w *World) noneAnywhere() error {
	tools, err := w.described()
	if err != nil {
		return err
	}
	for _, t := range tools {
		if slices.Contains(names, fmt.Sprint(t["name"])) {
			return fmt.Errorf("the toolkit still describes %v (source %v)", t["name"], t["source"])
		}
	}
	r, err := w.Must("adapters", map[string]any{"toolkit": w.TK().Current})
	if err != nil {
		return err
	}
	for _, style := range []string{"openai", "anthropic", "gemini"} {
		text := common.CompactJSON(r[style])
		for _, n := range names {
			if strings.Contains(text, `"name":"`+n+`"`) {
				return fmt.Errorf("the %s adapter still offers %q: %s", style, n, common.ClipString(text, 300))
			}
		}
	}
	return nil
}

// table is fixtures/builtins/table.json: upstream SPEC §4A's table as data.
type table struct {
	Tools []struct {
		Name       string                 `json:"name"`
		Properties map[string]any         `json:"properties"`
		Required   []string               `json:"required"`
		Items      map[string]tableSchema `json:"items"`
	} `json:"tools"`
}

type tableSchema struct {
	Properties map[string]any `json:"properties"`
	Required   []string       `json:"required"`
}

// schemasFollowTable: each builtin's inputSchema has exactly the table's properties, each of
// the table's type (or enum), and exactly its required names; an array's items likewise where
// the table gives their fields. Descriptions and other keywords are not the table's.
func (w *World) schemasFollowTable() error {
	b, err := common.ReadFixture(w.Env().Root, "builtins/table.json")
	if err != nil {
		return err
	}
	var tb table
	if err := json.Unmarshal(b, &tb); err != nil {
		return fmt.Errorf("harness: fixtures/builtins/table.json: %w", err)
	}
	tools, err := w.described()
	if err != nil {
		return err
	}
	byName := map[string]map[string]any{}
	for _, t := range tools {
		if t["source"] == "builtin" {
			byName[fmt.Sprint(t["name"])] = t
		}
	}
	var problems []string
	for _, want := range tb.Tools {
		t, ok := byName[want.Name]
		if !ok {
			problems = append(problems, want.Name+": not among the built-in tools")
			continue
		}
		schema, _ := t["inputSchema"].(map[string]any)
		problems = append(problems, compareSchema(want.Name, schema, tableSchema{want.Properties, want.Required})...)
		props, _ := schema["properties"].(map[string]any)
		for field, items := range want.Items {
			prop, _ := props[field].(map[string]any)
			item, _ := prop["items"].(map[string]any)
			problems = append(problems, compareSchema(want.Name+"."+field+"[]", item, items)...)
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("the built-in tools' input schemas differ from upstream SPEC §4A's table:\n  %s", strings.Join(problems, "\n  "))
	}
	return nil
}

// compareSchema lists how one object schema differs from the table's row.
func compareSchema(at string, schema map[string]any, want tableSchema) []string {
	if schema == nil {
		return []string{at + ": no object schema"}
	}
	var out []string
	props, _ := schema["properties"].(map[string]any)
	if got, w := common.SortedNames(props), common.SortedNames(want.Properties); !slices.Equal(got, w) {
		out = append(out, fmt.Sprintf("%s: properties %v; want %v", at, got, w))
	}
	for name, typ := range want.Properties {
		p, _ := props[name].(map[string]any)
		if p == nil {
			continue
		}
		if enum, isEnum := typ.([]any); isEnum {
			if common.CompactJSON(p["enum"]) != common.CompactJSON(enum) {
				out = append(out, fmt.Sprintf("%s.%s: enum %s; want %s", at, name, common.CompactJSON(p["enum"]), common.CompactJSON(enum)))
			}
			continue
		}
		if p["type"] != typ {
			out = append(out, fmt.Sprintf("%s.%s: type %v; want %v", at, name, p["type"], typ))
		}
	}
	var req []string
	if list, ok := schema["required"].([]any); ok {
		for _, r := range list {
			req = append(req, fmt.Sprint(r))
		}
	}
	slices.Sort(req)
	wantReq := slices.Sorted(slices.Values(want.Required))
	if !slices.Equal(req, wantReq) {
		out = append(out, fmt.Sprintf("%s: required %v; want %v", at, req, wantReq))
	}
	return out
}

// oneShadow: a host tool of a builtin's name replaces it (§4 step 1): once, with its own
// source, placed among the extras after the builtin source.
func (w *World) oneShadow(name, source string) error {
	tools, err := w.described()
	if err != nil {
		return err
	}
	at, lastBuiltin := -1, -1
	for i, t := range tools {
		if t["name"] == name {
			if at >= 0 {
				return fmt.Errorf("the toolkit lists %q twice", name)
			}
			at = i
			if t["source"] != source {
				return fmt.Errorf("the toolkit's %q has source %v; want %q", name, t["source"], source)
			}
		}
		if t["source"] == "builtin" {
			lastBuiltin = i
		}
	}
	if at < 0 {
		return fmt.Errorf("the toolkit has no %q", name)
	}
	if at < lastBuiltin {
		return fmt.Errorf("the toolkit's %q sits at %d, before the built-in tools end (at %d); the extras come after them", name, at, lastBuiltin)
	}
	return nil
}
