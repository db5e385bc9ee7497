package contract

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/client"
	"github.com/muthuishere/toolnexus-conformance/steps/common"

	"github.com/cucumber/godog"
)

// Steps of the shared contract's tool surface (SPEC.md §7): extra tools declared per kind, the
// toolkit's own tool list, execute-by-name, the schema adapters and sanitize.
func registerContractToolSteps(sc *kernel.Steps) {
	sc.Step(`^a toolkit with the host tool "([^"]*)"$`, (*World).toolkitWithHostTool)
	sc.Step(`^a toolkit with the host tools "([^"]*)" and "([^"]*)"$`, (*World).toolkitWithHostTools)
	sc.Step(`^a toolkit with the host tools "([^"]*)", "([^"]*)" and "([^"]*)", where "([^"]*)" answers after (\d+) ms$`, (*World).toolkitWithSlowTool)
	sc.Step(`^a native tool "([^"]*)" that returns "([^"]*)"$`, (*World).nativeReturns)
	sc.Step(`^a native tool "([^"]*)" with no input schema that returns "([^"]*)"$`, (*World).nativeNoSchema)
	sc.Step(`^a native tool "([^"]*)" that throws "([^"]*)"$`, (*World).nativeThrows)
	sc.Step(`^a native tool "([^"]*)" that returns the object (.+)$`, (*World).nativeReturnsObject)
	sc.Step(`^a native tool "([^"]*)" that returns the result (.+)$`, (*World).nativeReturnsResult)
	sc.Step(`^an http tool "([^"]*)" for (GET|POST|PUT|DELETE) "([^"]*)"$`, (*World).httpTool)
	sc.Step(`^an http tool "([^"]*)" for (GET|POST|PUT|DELETE) "([^"]*)" with:$`, (*World).httpToolWith)
	sc.Step(`^the toolkit is built$`, (*World).buildToolkit)
	sc.Step(`^the toolkit is described$`, (*World).describeToolkit)
	sc.Step(`^the tool "([^"]*)" is executed with (\{.*\})$`, (*World).executeWith)
	sc.Step(`^the tool "([^"]*)" is executed with no arguments$`, (*World).executeNoArgs)
	sc.Step(`^the tool "([^"]*)" is executed with null arguments$`, (*World).executeNullArgs)
	sc.Step(`^the schema adapters are rendered$`, (*World).renderAdapters)
	sc.Step(`^"([^"]*)" is sanitized$`, (*World).sanitize)

	sc.Step(`^the tools include (.+)$`, (*World).toolsInclude)
	sc.Step(`^the described tools have exactly one "([^"]*)"$`, (*World).describedExactlyOne)
	sc.Step(`^every described tool has a name, a description, an object input schema and a source$`, (*World).describedShape)
	sc.Step(`^the described tools are, in order, with their sources:$`, (*World).describedSources)
	sc.Step(`^the described tool "([^"]*)" has the input schema (.+)$`, (*World).describedSchema)
	sc.Step(`^the described tool "([^"]*)" has exactly the description:$`, (*World).describedDescription)
	sc.Step(`^the execute result is exactly (.+)$`, (*World).executeResultExactly)
	sc.Step(`^the execute result is an error whose output is exactly "([^"]*)"$`, (*World).executeErrorExactly)
	sc.Step(`^the execute result is an error with a non-empty output$`, (*World).executeErrorNonEmpty)
	sc.Step(`^the execute output is exactly:$`, (*World).executeOutputDoc)
	sc.Step(`^the execute output is exactly, with ⟨U\+XXXX⟩ standing for that code point:$`, (*World).executeOutputCodePoints)
	sc.Step(`^the execute result is not an error$`, (*World).executeNotError)
	sc.Step(`^the execute output contains "([^"]*)"$`, (*World).executeOutputContains)
	sc.Step(`^the execute output contains "([^"]*)" and then "([^"]*)"$`, (*World).executeOutputContainsInOrder)
	sc.Step(`^the execute metadata is (.+)$`, (*World).executeMetadata)
	sc.Step(`^the native tool "([^"]*)" was called with (.+)$`, (*World).nativeCalledWith)
	sc.Step(`^the sanitized value is "([^"]*)"$`, (*World).sanitizedIs)
}

// nativeTool declares a native extra tool for the next toolkit build.
func (w *World) nativeTool(name string, decl map[string]any, fn *nativeFn) {
	decl["kind"], decl["name"] = "native", name
	if _, ok := decl["description"]; !ok {
		decl["description"] = "native tool " + name
	}
	w.ct().addNative(name, fn)
	w.ct().extraTools = append(w.ct().extraTools, decl)
}

// httpTool declares an http extra tool; {{endpoint}} in the URL is this scenario's route on
// the HTTP endpoint fake.
func (w *World) httpTool(name, method, url string) error {
	return w.httpToolDecl(name, method, url, map[string]any{})
}

// httpToolWith takes the rest of the declaration (headers, query, body, timeoutMs,
// resultMode, inputSchema) as a JSON object.
func (w *World) httpToolWith(name, method, url string, doc *godog.DocString) error {
	var decl map[string]any
	if err := common.StepJSON(doc.Content, &decl); err != nil {
		return fmt.Errorf("harness: http tool %q: its declaration is not a JSON object: %w", name, err)
	}
	return w.httpToolDecl(name, method, url, decl)
}

func (w *World) httpToolDecl(name, method, url string, decl map[string]any) error {
	u, err := w.endpointURL(url)
	if err != nil {
		return err
	}
	decl["kind"], decl["name"], decl["method"], decl["url"] = "http", name, method, u
	if _, ok := decl["description"]; !ok {
		decl["description"] = "http tool " + name
	}
	w.ct().extraTools = append(w.ct().extraTools, decl)
	return nil
}

func argSchema() map[string]any {
	return map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{}}}
}

func (w *World) nativeReturns(name, out string) error {
	b, _ := json.Marshal(out)
	w.nativeTool(name, map[string]any{"inputSchema": argSchema()}, &nativeFn{returns: b})
	return nil
}

func (w *World) nativeNoSchema(name, out string) error {
	b, _ := json.Marshal(out)
	w.nativeTool(name, map[string]any{}, &nativeFn{returns: b})
	return nil
}

func (w *World) nativeThrows(name, msg string) error {
	w.nativeTool(name, map[string]any{"inputSchema": argSchema()}, &nativeFn{throws: msg})
	return nil
}

func (w *World) nativeReturnsObject(name, raw string) error {
	if !json.Valid([]byte(raw)) {
		return fmt.Errorf("harness: %s is not JSON", raw)
	}
	w.nativeTool(name, map[string]any{"inputSchema": argSchema(), "returns": "object"}, &nativeFn{returns: json.RawMessage(raw)})
	return nil
}

func (w *World) nativeReturnsResult(name, raw string) error {
	if !json.Valid([]byte(raw)) {
		return fmt.Errorf("harness: %s is not JSON", raw)
	}
	w.nativeTool(name, map[string]any{"inputSchema": argSchema(), "returns": "result"}, &nativeFn{returns: json.RawMessage(raw)})
	return nil
}

// buildToolkit creates the toolkit from the scenario's MCP servers (when there are any) and
// extra tools; a port error fails the step, as a host's set-up would.
func (w *World) buildToolkit() error {
	args := map[string]any{}
	if len(w.mcp().Servers) > 0 || w.mcp().Raw != "" {
		cfg, err := w.ConfigArg()
		if err != nil {
			return err
		}
		args["mcpConfig"] = cfg
	}
	if len(w.ct().extraTools) > 0 {
		args["extraTools"] = w.ct().extraTools
	}
	if w.ct().builtins {
		args["builtins"] = true
	}
	if err := w.TK().Create(args); err != nil {
		return err
	}
	w.mcp().SnapshotChildren()
	return nil
}

func (w *World) needToolkit() error {
	if w.TK().Current == "" {
		return w.buildToolkit()
	}
	return nil
}

func (w *World) describeToolkit() error {
	if err := w.needToolkit(); err != nil {
		return err
	}
	r, err := w.Must("toolkit.describe", map[string]any{"toolkit": w.TK().Current})
	w.ct().described = r
	return err
}

func (w *World) executeArgs(name string, args map[string]any) error {
	if err := w.needToolkit(); err != nil {
		return err
	}
	args["toolkit"], args["name"] = w.TK().Current, name
	r, err := w.Must("tool.execute", args)
	w.ct().executed = r
	return err
}

func (w *World) executeWith(name, raw string) error {
	if !json.Valid([]byte(raw)) {
		return fmt.Errorf("harness: arguments %s are not JSON", raw)
	}
	return w.executeArgs(name, map[string]any{"args": json.RawMessage(raw)})
}

func (w *World) executeNoArgs(name string) error { return w.executeArgs(name, map[string]any{}) }

func (w *World) executeNullArgs(name string) error {
	return w.executeArgs(name, map[string]any{"args": nil})
}

func (w *World) renderAdapters() error {
	if err := w.needToolkit(); err != nil {
		return err
	}
	r, err := w.Must("adapters", map[string]any{"toolkit": w.TK().Current})
	w.ct().rendered = r
	return err
}

func (w *World) sanitize(value string) error {
	r, err := w.Must("sanitize", map[string]any{"value": value})
	w.ct().sanitized = r
	return err
}

// describedTools is the toolkit.describe list, or why there is none.
func (w *World) describedTools() ([]map[string]any, error) {
	if w.ct().described == nil {
		return nil, fmt.Errorf("harness: no toolkit was described")
	}
	list, ok := w.ct().described["tools"].([]any)
	if !ok {
		return nil, fmt.Errorf("toolkit.describe returned no tool list: %v", w.ct().described["tools"])
	}
	out := make([]map[string]any, 0, len(list))
	for _, v := range list {
		m, _ := v.(map[string]any)
		out = append(out, m)
	}
	return out, nil
}

func (w *World) toolsInclude(list string) error {
	r, err := common.OKResult(w.A)
	if err != nil {
		return err
	}
	names, _ := r["tools"].([]any)
	have := map[string]bool{}
	for _, n := range names {
		have[fmt.Sprint(n)] = true
	}
	var missing []string
	for _, want := range common.SplitList(list) {
		if !have[want] {
			missing = append(missing, want)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("the toolkit lacks %s; it has %s", strings.Join(missing, ", "), common.CompactJSON(names))
	}
	return nil
}

func (w *World) describedExactlyOne(name string) error {
	tools, err := w.describedTools()
	if err != nil {
		return err
	}
	n := 0
	for _, t := range tools {
		if t["name"] == name {
			n++
		}
	}
	if n != 1 {
		return fmt.Errorf("the toolkit describes %d tools named %q; want exactly one", n, name)
	}
	return nil
}

func (w *World) describedShape() error {
	tools, err := w.describedTools()
	if err != nil {
		return err
	}
	if len(tools) == 0 {
		return fmt.Errorf("the toolkit describes no tool; the scenario declared some")
	}
	for i, t := range tools {
		name, _ := t["name"].(string)
		var bad []string
		if name == "" {
			bad = append(bad, fmt.Sprintf("name %#v is not a non-empty string", t["name"]))
		}
		if _, ok := t["description"].(string); !ok {
			bad = append(bad, fmt.Sprintf("description %#v is not a string", t["description"]))
		}
		if s, ok := t["inputSchema"].(map[string]any); !ok || s["type"] != "object" {
			bad = append(bad, fmt.Sprintf("inputSchema %s is not an object schema with type \"object\"", common.CompactJSON(t["inputSchema"])))
		}
		if _, ok := t["source"].(string); !ok {
			bad = append(bad, fmt.Sprintf("source %#v is not a string", t["source"]))
		}
		if len(bad) > 0 {
			return fmt.Errorf("tool %d (%q): %s", i, name, strings.Join(bad, "; "))
		}
	}
	return nil
}

func (w *World) describedSources(table *godog.Table) error {
	tools, err := w.describedTools()
	if err != nil {
		return err
	}
	var want, got []string
	for i, row := range table.Rows {
		if i == 0 {
			continue // header: name | source
		}
		want = append(want, row.Cells[0].Value+" "+row.Cells[1].Value)
	}
	for _, t := range tools {
		got = append(got, fmt.Sprintf("%v %v", t["name"], t["source"]))
	}
	if d := kernel.DiffOf(want, got); d != nil {
		return fmt.Errorf("described tools and sources differ (-want +got):\n%w", d)
	}
	return nil
}

func (w *World) describedSchema(name, raw string) error {
	t, err := w.describedTool(name)
	if err != nil {
		return err
	}
	return common.SameJSON("the input schema of "+name, raw, t["inputSchema"])
}

func (w *World) describedDescription(name string, doc *godog.DocString) error {
	t, err := w.describedTool(name)
	if err != nil {
		return err
	}
	if t["description"] != doc.Content {
		return fmt.Errorf("the description of %s differs byte for byte:\n got %s\nwant %s", name, common.CompactJSON(t["description"]), common.CompactJSON(doc.Content))
	}
	return nil
}

// describedTool is the first described tool with that name.
func (w *World) describedTool(name string) (map[string]any, error) {
	tools, err := w.describedTools()
	if err != nil {
		return nil, err
	}
	for _, t := range tools {
		if t["name"] == name {
			return t, nil
		}
	}
	return nil, fmt.Errorf("the toolkit has no tool %q", name)
}

// NeedToolkit builds the scenario's toolkit unless one is built: for other areas' steps.
func (w *World) NeedToolkit() error { return w.needToolkit() }

// Executed is the last tool.execute result: for other areas' steps.
func (w *World) Executed() (map[string]any, error) { return w.executeResult() }

func (w *World) executeResult() (map[string]any, error) {
	if w.ct().executed == nil {
		return nil, fmt.Errorf("harness: no tool was executed")
	}
	return w.ct().executed, nil
}

// executeResultExactly compares the whole result: an absent metadata must be absent.
func (w *World) executeResultExactly(raw string) error {
	r, err := w.executeResult()
	if err != nil {
		return err
	}
	return common.SameJSON("the execute result", raw, r)
}

func (w *World) executeErrorExactly(out string) error {
	r, err := w.executeResult()
	if err != nil {
		return err
	}
	if r["isError"] != true || r["output"] != out {
		return fmt.Errorf("execute returned isError %v with output %s; want isError true with output %q", r["isError"], common.CompactJSON(r["output"]), out)
	}
	return nil
}

func (w *World) executeErrorNonEmpty() error {
	r, err := w.executeResult()
	if err != nil {
		return err
	}
	if s, _ := r["output"].(string); r["isError"] != true || strings.TrimSpace(s) == "" {
		return fmt.Errorf("execute returned isError %v with output %s; want isError true with a non-empty output", r["isError"], common.CompactJSON(r["output"]))
	}
	return nil
}

func (w *World) executeOutputDoc(doc *godog.DocString) error {
	return w.executeOutputIs(doc.Content)
}

// executeOutputCodePoints is executeOutputDoc for an output holding characters a feature
// file should not carry raw (controls, line separators): each ⟨U+XXXX⟩ stands for one.
func (w *World) executeOutputCodePoints(doc *godog.DocString) error {
	want, err := common.CodePoints(doc.Content)
	if err != nil {
		return err
	}
	return w.executeOutputIs(want)
}

func (w *World) executeOutputIs(want string) error {
	r, err := w.executeResult()
	if err != nil {
		return err
	}
	if r["output"] != want {
		return fmt.Errorf("execute output differs byte for byte:\n got %s\nwant %s", common.CompactJSON(r["output"]), common.CompactJSON(want))
	}
	return nil
}

func (w *World) executeNotError() error {
	r, err := w.executeResult()
	if err != nil {
		return err
	}
	if r["isError"] != false {
		return fmt.Errorf("execute returned isError %s (output %s); want false", common.CompactJSON(r["isError"]), common.CompactJSON(r["output"]))
	}
	return nil
}

func (w *World) executeOutputContains(part string) error {
	return w.executeOutputContainsInOrder(part, "")
}

func (w *World) executeOutputContainsInOrder(first, then string) error {
	r, err := w.executeResult()
	if err != nil {
		return err
	}
	out, _ := r["output"].(string)
	i := strings.Index(out, first)
	if i < 0 || (then != "" && !strings.Contains(out[i+len(first):], then)) {
		return fmt.Errorf("execute output %s does not contain %q%s", common.CompactJSON(r["output"]), first, map[bool]string{true: fmt.Sprintf(" followed by %q", then)}[then != ""])
	}
	return nil
}

func (w *World) executeMetadata(raw string) error {
	r, err := w.executeResult()
	if err != nil {
		return err
	}
	return common.SameJSON("the execute metadata", raw, r["metadata"])
}

func (w *World) nativeCalledWith(name, raw string) error {
	saw := w.ct().nativeSaw(name)
	if len(saw) == 0 {
		return fmt.Errorf("the native tool %q was never called", name)
	}
	return common.SameJSON("the arguments native tool "+name+" received", raw, saw[len(saw)-1])
}

func (w *World) sanitizedIs(want string) error {
	if w.ct().sanitized == nil {
		return fmt.Errorf("harness: nothing was sanitized")
	}
	if got := w.ct().sanitized["value"]; got != want {
		return fmt.Errorf("sanitize returned %s; want %q", common.CompactJSON(got), want)
	}
	return nil
}

func (w *World) toolkitWithHostTool(name string) error { return w.toolkitWithHostTools(name, "") }

// toolkitWithSlowTool builds a toolkit of three host tools, one of which answers late.
func (w *World) toolkitWithSlowTool(a, b, c, slow string, ms int) error {
	w.ct().delays[slow] = time.Duration(ms) * time.Millisecond
	return w.toolkitWithHostToolList([]string{a, b, c})
}

// toolkitWithHostTools builds a toolkit of host tools (b: none when ""), each answering
// "<name>-output".
func (w *World) toolkitWithHostTools(a, b string) error {
	return w.toolkitWithHostToolList([]string{a, b})
}

func (w *World) toolkitWithHostToolList(names []string) error {
	var tools []any
	for _, name := range names {
		if name != "" {
			w.ct().addTool(name, name+"-output")
			tools = append(tools, client.EchoTool(name))
		}
	}
	h := w.Handle("t")
	if _, err := w.Must("toolkit.create", map[string]any{"handle": h, "extraTools": tools}); err != nil {
		return err
	}
	w.TK().Current = h
	w.TK().All = append(w.TK().All, h)
	return nil
}
