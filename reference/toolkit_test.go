package toolnexus

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// constTool answers out and records the args it got.
func constTool(name string, source ToolSource, out string, seen *map[string]any) Tool {
	return Tool{Name: name, Source: source, InputSchema: emptyObjectSchema(),
		Execute: func(args map[string]any, _ *ToolContext) (ToolResult, error) {
			if seen != nil {
				*seen = args
			}
			return ToolResult{Output: out}, nil
		}}
}

func toolNames(tools []Tool) string {
	var ns []string
	for _, t := range tools {
		ns = append(ns, t.Name)
	}
	return strings.Join(ns, ",")
}

func TestAssembleToolsOrderFirstWinsWarns(t *testing.T) {
	warnings := captureWarnings(t)
	mcp := []Tool{constTool("s_a", SourceMCP, "mcp-a", nil), constTool("s_b", SourceMCP, "mcp-b", nil)}
	extra := []Tool{
		constTool("my.tool", SourceNative, "n", nil),
		constTool("s_a", SourceNative, "shadow", nil),
		constTool("get weather", SourceHTTP, "h", nil),
		constTool("my.tool", SourceHTTP, "again", nil),
		constTool("off", SourceNative, "x", nil),
	}
	got := assembleTools(mcp, extra, []string{"off"})
	if toolNames(got) != "s_a,s_b,my.tool,get weather" || got[0].Source != SourceMCP || got[2].Source != SourceNative {
		t.Fatalf("tools = %q", toolNames(got))
	}
	want := []string{
		`[toolnexus] duplicate tool name "s_a" — keeping first`,
		`[toolnexus] duplicate tool name "my.tool" — keeping first`,
	}
	if w := warnings(); strings.Join(w, "\n") != strings.Join(want, "\n") {
		t.Fatalf("warnings = %q", w)
	}
}

func TestCreateToolkitExtraToolsVerbatim(t *testing.T) {
	captureWarnings(t)
	tk, err := CreateToolkit(context.Background(), Options{Builtins: false, ExtraTools: []Tool{
		constTool("my.tool", SourceNative, "1", nil), constTool("get weather", SourceHTTP, "2", nil), constTool("my.tool", SourceNative, "3", nil),
	}})
	if err != nil {
		t.Fatal(err)
	}
	if toolNames(tk.Tools()) != "my.tool,get weather" {
		t.Fatalf("tools = %q", toolNames(tk.Tools()))
	}
	if res, _ := tk.Execute(context.Background(), "my.tool", nil); res.Output != "1" {
		t.Fatalf("the first my.tool did not win: %+v", res)
	}
}

func TestExecuteUnknownAndNilArgs(t *testing.T) {
	var seen map[string]any
	failing := Tool{Name: "bad", Execute: func(map[string]any, *ToolContext) (ToolResult, error) {
		return ToolResult{}, errors.New("transport gone")
	}}
	tk, _ := CreateToolkit(context.Background(), Options{Builtins: false, ExtraTools: []Tool{constTool("echo", SourceCustom, "ok", &seen), failing}})
	res, err := tk.Execute(context.Background(), "ghost", nil)
	if err != nil || !res.IsError || res.Output != "Unknown tool: ghost" {
		t.Fatalf("unknown: %+v, %v", res, err)
	}
	if _, err := tk.Execute(context.Background(), "echo", nil); err != nil || seen == nil || len(seen) != 0 {
		t.Fatalf("nil args reached the tool as %#v (%v)", seen, err)
	}
	if _, err := tk.Execute(context.Background(), "bad", nil); err == nil || err.Error() != "transport gone" {
		t.Fatalf("a tool's own Go error was not passed on: %v", err)
	}
}

func TestAdaptersShapes(t *testing.T) {
	schema := JSONSchema{"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string"}}, "title": "T"}
	tools := []Tool{{Name: "a.b", Description: "d", InputSchema: schema}}
	enc := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	s := enc(schema)
	if got := enc(ToOpenAI(tools)); got != `[{"function":{"description":"d","name":"a.b","parameters":`+s+`},"type":"function"}]` {
		t.Fatalf("openai = %s", got)
	}
	if got := enc(ToAnthropic(tools)); got != `[{"description":"d","input_schema":`+s+`,"name":"a.b"}]` {
		t.Fatalf("anthropic = %s", got)
	}
	if got := enc(ToGemini(tools)); got != `[{"functionDeclarations":[{"description":"d","name":"a.b","parameters":`+s+`}]}]` {
		t.Fatalf("gemini = %s", got)
	}
	if got := enc(ToGemini(nil)); got != `[{"functionDeclarations":[]}]` {
		t.Fatalf("gemini, no tools = %s", got)
	}
	tk, _ := CreateToolkit(context.Background(), Options{Builtins: false})
	if got := enc(tk.ToGemini()); got != `[{"functionDeclarations":[]}]` {
		t.Fatalf("toolkit gemini, no tools = %s", got)
	}
}
