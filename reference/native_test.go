package toolnexus

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
)

func TestNativeToolStringAndSource(t *testing.T) {
	tool := NativeTool("ping", "d", nil, func(context.Context, map[string]any) (string, error) { return "pong", nil })
	if tool.Source != SourceNative || tool.Name != "ping" || tool.Description != "d" {
		t.Fatalf("tool = %+v", tool)
	}
	res, err := tool.Execute(map[string]any{}, nil)
	if err != nil || res.Output != "pong" || res.IsError || res.Metadata != nil {
		t.Fatalf("got %+v, %v", res, err)
	}
}

func TestNativeToolErrorIsAResult(t *testing.T) {
	tool := NativeTool("boom", "", nil, func(context.Context, map[string]any) (string, error) { return "ignored", errors.New("boom") })
	res, err := tool.Execute(nil, &ToolContext{})
	if err != nil || !res.IsError || res.Output != "boom" || res.Metadata != nil {
		t.Fatalf("got %+v, %v", res, err)
	}
}

func TestNativeToolDefaultSchema(t *testing.T) {
	a := NativeTool("a", "", nil, nil)
	b := NativeTool("b", "", nil, nil)
	raw, _ := json.Marshal(a.InputSchema)
	if string(raw) != `{"additionalProperties":false,"properties":{},"type":"object"}` {
		t.Fatalf("schema = %s", raw)
	}
	a.InputSchema["properties"].(map[string]any)["x"] = 1
	if len(b.InputSchema["properties"].(map[string]any)) != 0 {
		t.Fatal("two tools share one default schema map")
	}
	given := JSONSchema{"type": "object", "title": "t"}
	if c := NativeTool("c", "", given, nil); c.InputSchema["title"] != "t" {
		t.Fatalf("given schema not kept: %v", c.InputSchema)
	}
}

func TestNativeToolArgsAndContext(t *testing.T) {
	type key struct{}
	var seen map[string]any
	var seenVal any
	tool := NativeTool("echo", "", nil, func(ctx context.Context, args map[string]any) (string, error) {
		seen, seenVal = args, ctx.Value(key{})
		return "", nil
	})
	if _, err := tool.Execute(nil, nil); err != nil || seen == nil || len(seen) != 0 {
		t.Fatalf("nil args reached fn as %#v (%v)", seen, err)
	}
	ctx := context.WithValue(context.Background(), key{}, "v")
	args := map[string]any{"a": []any{1.0, map[string]any{"b": "é"}}}
	tool.Execute(args, &ToolContext{Ctx: ctx})
	if seenVal != "v" || seen["a"].([]any)[1].(map[string]any)["b"] != "é" {
		t.Fatalf("fn saw ctx value %v, args %#v", seenVal, seen)
	}
}

func TestNativeToolResultPassesThrough(t *testing.T) {
	want := ToolResult{Output: "x", IsError: true, Metadata: map[string]any{"k": 1}}
	tool := NativeToolResult("res", "d", nil, func(context.Context, map[string]any) (ToolResult, error) { return want, nil })
	if tool.Source != SourceNative || tool.InputSchema["type"] != "object" {
		t.Fatalf("tool = %+v", tool)
	}
	res, err := tool.Execute(nil, nil)
	if err != nil || res.Output != "x" || !res.IsError || res.Metadata["k"] != 1 {
		t.Fatalf("got %+v, %v", res, err)
	}
	boom := NativeToolResult("b", "", nil, func(context.Context, map[string]any) (ToolResult, error) { return want, errors.New("boom") })
	if res, err := boom.Execute(map[string]any{}, &ToolContext{}); err != nil || res.Output != "boom" || !res.IsError || res.Metadata != nil {
		t.Fatalf("an error: got %+v, %v", res, err)
	}
}
