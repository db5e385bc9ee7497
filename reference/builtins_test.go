package toolnexus

import (
	"context"
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"
)

const allBuiltins = "bash,read,write,edit,grep,glob,webfetch,question,apply_patch,todowrite"

func TestCreateBuiltinToolsOrderSourceAndSchemas(t *testing.T) {
	tools := CreateBuiltinTools()
	if toolNames(tools) != allBuiltins {
		t.Fatalf("order = %s", toolNames(tools))
	}
	// Property names, types and required lists, as the §4A table gives them.
	want := map[string]struct {
		props    map[string]string
		required []string
	}{
		"bash":        {map[string]string{"command": "string", "workdir": "string", "timeout": "number", "description": "string"}, []string{"command"}},
		"read":        {map[string]string{"path": "string", "offset": "number", "limit": "number"}, []string{"path"}},
		"write":       {map[string]string{"path": "string", "content": "string"}, []string{"path", "content"}},
		"edit":        {map[string]string{"path": "string", "oldString": "string", "newString": "string", "replaceAll": "boolean"}, []string{"path", "oldString", "newString"}},
		"grep":        {map[string]string{"pattern": "string", "path": "string", "include": "string", "limit": "number"}, []string{"pattern"}},
		"glob":        {map[string]string{"pattern": "string", "path": "string", "limit": "number"}, []string{"pattern"}},
		"webfetch":    {map[string]string{"url": "string", "format": "string", "timeout": "number"}, []string{"url"}},
		"question":    {map[string]string{"questions": "array"}, []string{"questions"}},
		"apply_patch": {map[string]string{"patchText": "string"}, []string{"patchText"}},
		"todowrite":   {map[string]string{"todos": "array"}, []string{"todos"}},
	}
	for _, tool := range tools {
		w := want[tool.Name]
		if tool.Source != SourceBuiltin || SourceBuiltin != "builtin" || tool.Description == "" || tool.Execute == nil {
			t.Fatalf("%s: source %q, description %q", tool.Name, tool.Source, tool.Description)
		}
		schema := jsonish(t, tool.InputSchema).(map[string]any)
		if schema["type"] != "object" || schema["additionalProperties"] != false {
			t.Fatalf("%s: schema %v", tool.Name, schema)
		}
		got := map[string]string{}
		for name, p := range schema["properties"].(map[string]any) {
			got[name], _ = p.(map[string]any)["type"].(string)
		}
		mustEqual(t, tool.Name+" properties", got, w.props)
		mustEqual(t, tool.Name+" required", jsonish(t, schema["required"]), jsonish(t, w.required))
	}
	format := jsonish(t, tools[6].InputSchema).(map[string]any)["properties"].(map[string]any)["format"]
	mustEqual(t, "webfetch format enum", format.(map[string]any)["enum"], []any{"text", "markdown", "html"})
	items := func(i int) map[string]any {
		p := jsonish(t, tools[i].InputSchema).(map[string]any)["properties"].(map[string]any)
		for _, v := range p {
			return v.(map[string]any)["items"].(map[string]any)
		}
		return nil
	}
	q := items(7)
	mustEqual(t, "question item required", q["required"], []any{"question"})
	mustEqual(t, "question item keys", keysOf(q["properties"].(map[string]any)), []string{"header", "multiple", "options", "question"})
	td := items(9)
	mustEqual(t, "todo item required", td["required"], []any{"id", "text", "completed"})
	// Fresh maps each call: editing one copy leaves the next untouched.
	tools[0].InputSchema["type"] = "changed"
	if CreateBuiltinTools()[0].InputSchema["type"] != "object" {
		t.Fatal("builtin schemas are shared between calls")
	}
}

func TestBuiltinsToggle(t *testing.T) {
	cases := []struct {
		name   string
		opt    any
		config any
		want   string // tool names; "ERR:<part>" for an error
	}{
		{"nil is on", nil, nil, allBuiltins},
		{"true is on", true, nil, allBuiltins},
		{"false is off", false, nil, ""},
		{"off is off", "off", nil, ""},
		{"typed config, disabled", BuiltinsConfig{Disabled: ptr(true)}, nil, ""},
		{"typed config pointer, enabled false", &BuiltinsConfig{Enabled: ptr(false)}, nil, ""},
		{"typed config drops tools", BuiltinsConfig{Tools: map[string]bool{"bash": false, "glob": true}}, nil, "read,write,edit,grep,glob,webfetch,question,apply_patch,todowrite"},
		{"disabled wins over enabled", map[string]any{"disabled": true, "enabled": true}, nil, ""},
		{"enabled false", map[string]any{"enabled": false}, nil, ""},
		{"disabled false, enabled true", map[string]any{"disabled": false, "enabled": true}, nil, allBuiltins},
		{"a non-boolean enabled is ignored, as for a server", map[string]any{"enabled": "no"}, nil, allBuiltins},
		{"tools map drops false, keeps true, ignores unknown", map[string]any{"tools": map[string]any{"bash": false, "write": false, "read": true, "nope": false}}, nil, "read,edit,grep,glob,webfetch,question,apply_patch,todowrite"},
		{"whole-source off never reads the map", map[string]any{"disabled": true, "tools": "garbage"}, nil, ""},
		{"empty object is on", map[string]any{}, nil, allBuiltins},
		{"a tools entry that is no boolean", map[string]any{"tools": map[string]any{"bash": "false"}}, nil, "ERR:\"tools\" entry \"bash\" must be true or false"},
		{"tools that is no object", map[string]any{"tools": []any{"bash"}}, nil, "ERR:\"tools\" must be an object"},
		{"another string", "on", nil, `ERR:Builtins: string "on" is not a toggle`},
		{"a number names its type", 1, nil, "ERR:Builtins: int is not supported"},
		{"inline config key", nil, map[string]any{"builtins": false}, ""},
		{"inline config key, object", nil, map[string]any{"builtins": map[string]any{"tools": map[string]any{"question": false}}}, "bash,read,write,edit,grep,glob,webfetch,apply_patch,todowrite"},
		{"JSON config key", nil, []byte(`{"mcpServers":{},"builtins":{"tools":{"bash":false,"edit":false}}}`), "read,write,grep,glob,webfetch,question,apply_patch,todowrite"},
		{"JSON config key, last duplicate wins", nil, json.RawMessage(`{"builtins":true,"builtins":{"enabled":false}}`), ""},
		{"JSON config key null is absent", nil, []byte(`{"builtins":null}`), allBuiltins},
		{"a bad config key is named", nil, []byte(`{"builtins":3}`), `ERR:MCP config "builtins": json.Number is not supported`},
		{"the option wins over the config key", true, map[string]any{"builtins": false}, allBuiltins},
		{"a false option wins too", false, map[string]any{"builtins": true}, ""},
		{"a nil *BuiltinsConfig is unset", (*BuiltinsConfig)(nil), map[string]any{"builtins": false}, ""},
		{"a key inside the wrapper is a server, not the toggle", nil, []byte(`{"mcp":{"builtins":{"disabled":true}}}`), allBuiltins},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			toggle, err := resolveBuiltins(c.opt, c.config)
			if strings.HasPrefix(c.want, "ERR:") {
				if err == nil || !strings.Contains(err.Error(), c.want[4:]) {
					t.Fatalf("error = %v, want it to contain %q", err, c.want[4:])
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := toolNames(toggle.tools()); got != c.want {
				t.Fatalf("tools = %q, want %q", got, c.want)
			}
		})
	}
}

func TestCreateToolkitBuiltinsByDefault(t *testing.T) {
	tk, err := CreateToolkit(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if toolNames(tk.Tools()) != allBuiltins {
		t.Fatalf("default tools = %s", toolNames(tk.Tools()))
	}
	res, err := tk.Execute(context.Background(), "todowrite", map[string]any{"todos": []any{}})
	if err != nil || res.IsError || res.Output != "(no todos)" {
		t.Fatalf("execute a builtin: %+v %v", res, err)
	}
	if _, err := CreateToolkit(context.Background(), Options{Builtins: 2.5}); err == nil || !strings.Contains(err.Error(), "float64") {
		t.Fatalf("bad toggle: %v", err)
	}
	// A config that carries only the toggle starts no server and turns the source off.
	tk, err = CreateToolkit(context.Background(), Options{McpConfig: map[string]any{"builtins": map[string]any{"disabled": true}}})
	if err != nil || len(tk.Tools()) != 0 || len(tk.McpStatus()) != 0 {
		t.Fatalf("toggle-only config: %v, %s, %v", err, toolNames(tk.Tools()), tk.McpStatus())
	}
}

func TestAssemblyOrderExtraShadowsBuiltin(t *testing.T) {
	warnings := captureWarnings(t)
	sandboxed := constTool("bash", SourceNative, "sandboxed", nil)
	tk, err := CreateToolkit(context.Background(), Options{
		ExtraTools:   []Tool{constTool("first", SourceNative, "1", nil), sandboxed, constTool("edit", SourceHTTP, "e", nil)},
		DisableTools: []string{"glob"},
		Builtins:     map[string]any{"tools": map[string]any{"todowrite": false}},
	})
	if err != nil {
		t.Fatal(err)
	}
	// The shadowed builtins leave their place; the host's tools sit among the extras, in order.
	want := "read,write,grep,webfetch,question,apply_patch,first,bash,edit"
	if got := toolNames(tk.Tools()); got != want {
		t.Fatalf("tools = %s\nwant    %s", got, want)
	}
	bash, _ := tk.Get("bash")
	if bash.Source != SourceNative {
		t.Fatalf("bash source = %s", bash.Source)
	}
	if res, _ := tk.Execute(context.Background(), "bash", map[string]any{"command": "echo real"}); res.Output != "sandboxed" {
		t.Fatalf("bash ran the builtin: %+v", res)
	}
	if w := warnings(); len(w) != 0 {
		t.Fatalf("an intended shadow warned: %q", w)
	}
}

func TestAssemblyMcpBeatsBuiltin(t *testing.T) {
	warnings := captureWarnings(t)
	f := startStreamable(t, "patch", "other")
	tk, err := CreateToolkit(context.Background(), Options{
		McpConfig:  map[string]any{"apply": mcpHTTPEntry(f.URL(), nil)},
		ExtraTools: []Tool{constTool("mine", SourceNative, "m", nil)},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	want := "apply_other,apply_patch,bash,read,write,edit,grep,glob,webfetch,question,todowrite,mine"
	if got := toolNames(tk.Tools()); got != want {
		t.Fatalf("tools = %s\nwant    %s", got, want)
	}
	if tool, _ := tk.Get("apply_patch"); tool.Source != SourceMCP {
		t.Fatalf("apply_patch source = %s", tool.Source)
	}
	got := warnings()
	if len(got) != 1 || got[0] != `[toolnexus] duplicate tool name "apply_patch" — keeping first` {
		t.Fatalf("warnings = %q", got)
	}
}

func TestAssemblyDedupesByFirstWins(t *testing.T) {
	// The same rule through assembleTools directly: MCP first, builtins next, extras last.
	captureWarnings(t)
	mcp := append([]Tool{constTool("read", SourceMCP, "mcp", nil)}, withoutShadowed(CreateBuiltinTools(), nil)...)
	got := assembleTools(mcp, []Tool{constTool("x", SourceCustom, "x", nil)}, nil)
	names := toolNames(got)
	if names != "read,bash,write,edit,grep,glob,webfetch,question,apply_patch,todowrite,x" || got[0].Source != SourceMCP {
		t.Fatalf("tools = %s", names)
	}
}

func TestBuiltinArgReaders(t *testing.T) {
	args := map[string]any{"f": 2.0, "n": json.Number("3"), "bad": json.Number("x"), "s": "str", "b": true, "half": 1.5, "zero": 0.0, "null": nil}
	if n, err := countArg(args, "f", 9); err != nil || n != 2 {
		t.Fatalf("float64: %d %v", n, err)
	}
	if n, err := countArg(args, "n", 9); err != nil || n != 3 {
		t.Fatalf("json.Number: %d %v", n, err)
	}
	if n, err := countArg(args, "missing", 9); err != nil || n != 9 {
		t.Fatalf("default: %d %v", n, err)
	}
	if n, err := countArg(args, "null", 9); err != nil || n != 9 {
		t.Fatalf("null is absent: %d %v", n, err)
	}
	for _, key := range []string{"bad", "s", "half", "zero"} {
		if _, err := countArg(args, key, 1); err == nil {
			t.Fatalf("%s: no error", key)
		}
	}
	if _, err := strArg(args, "f", true); err == nil || err.Error() != `"f" must be a string, got a number` {
		t.Fatalf("wrong type: %v", err)
	}
	if _, err := strArg(args, "missing", true); err == nil || err.Error() != `"missing" is required` {
		t.Fatalf("required: %v", err)
	}
	if _, err := boolArg(args, "s"); err == nil {
		t.Fatal("a string read as a boolean")
	}
	if got, ok := anySlice([]map[string]any{{"a": 1}}); !ok || !reflect.DeepEqual(got, []any{map[string]any{"a": 1.0}}) {
		t.Fatalf("typed slice: %v %v", got, ok)
	}
	if _, ok := anySlice("x"); ok {
		t.Fatal("a string read as an array")
	}
}

// Every builtin turns a wrong argument type into an error result, never a panic or a Go error.
func TestBuiltinsRejectWrongTypes(t *testing.T) {
	bad := map[string]map[string]any{
		"bash":        {"command": 1.0},
		"read":        {"path": true},
		"write":       {"path": "x", "content": 3.0},
		"edit":        {"path": "x", "oldString": []any{}, "newString": ""},
		"grep":        {"pattern": map[string]any{}},
		"glob":        {"pattern": "*", "limit": "ten"},
		"webfetch":    {"url": 5.0},
		"question":    {"questions": "why?"},
		"apply_patch": {"patchText": nil},
		"todowrite":   {"todos": map[string]any{}},
	}
	var names []string
	for _, tool := range CreateBuiltinTools() {
		names = append(names, tool.Name)
		for _, args := range []map[string]any{bad[tool.Name], nil} {
			res, err := tool.Execute(args, nil)
			if err != nil || !res.IsError || !strings.HasPrefix(res.Output, tool.Name+": ") {
				t.Fatalf("%s(%v): %+v %v", tool.Name, args, res, err)
			}
		}
	}
	sort.Strings(names)
	if len(names) != len(bad) {
		t.Fatalf("cases for %v", names)
	}
}

func TestBuiltinPanicBecomesErrorResult(t *testing.T) {
	tool := builtinTool("x", "d", objectSchema(map[string]any{}), func(map[string]any, *ToolContext) ToolResult { panic("oops") })
	res, err := tool.Execute(nil, nil)
	if err != nil || !res.IsError || res.Output != "x: internal error: oops" {
		t.Fatalf("%+v %v", res, err)
	}
}

func ptr[T any](v T) *T { return &v }

// runBuiltin runs one builtin by name with a fresh tool.
func runBuiltin(t *testing.T, name string, args map[string]any, tc *ToolContext) ToolResult {
	t.Helper()
	for _, tool := range CreateBuiltinTools() {
		if tool.Name == name {
			res, err := tool.Execute(args, tc)
			if err != nil {
				t.Fatalf("%s returned a Go error: %v", name, err)
			}
			return res
		}
	}
	t.Fatalf("no builtin %q", name)
	return ToolResult{}
}

// wantBuiltinResult checks a builtin's result against a case: isError, and the output exactly,
// or, when want starts with "~", an output that contains the rest.
func wantBuiltinResult(t *testing.T, res ToolResult, isError bool, want string) {
	t.Helper()
	if res.IsError != isError {
		t.Fatalf("isError = %v, want %v: %q", res.IsError, isError, res.Output)
	}
	if part, ok := strings.CutPrefix(want, "~"); ok {
		if !strings.Contains(res.Output, part) {
			t.Fatalf("output %q lacks %q", res.Output, part)
		}
	} else if res.Output != want {
		t.Fatalf("output:\n%s\nwant:\n%s", res.Output, want)
	}
}
