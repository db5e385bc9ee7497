package main

import (
	"bytes"
	"context"
	"encoding/json"
	"time"

	toolnexus "github.com/muthuishere/toolnexus/golang"
)

// The tools area: toolkits, describe, execute, the schema adapters, sanitize, and the host
// and native tools whose execute calls back contract.tool (the protocol's slot name). The
// other areas add their toolkit.create options (mcp, skills, suspension) through the kit.

const slotTool = "contract.tool"

var toolsArea = registerArea(area{name: "tools", slots: []string{slotTool}, ops: map[string]opFunc{
	"toolkit.create": op(createToolkit), "toolkit.close": op(closeToolkit), "toolkit.describe": op(describeToolkit),
	"tool.execute": op(executeTool), "adapters": op(schemaAdapters), "sanitize": op(sanitize)}})

// extraTool is a toolkit.create extra tool (SPEC.md §7): host (a literal calling back), native
// (the port's NativeTool) or http (the port's HTTPTool, given as declared).
type extraTool struct {
	Kind, Name, Description, Returns string
	InputSchema                      map[string]any
	Method, URL, Body, ResultMode    string
	Headers                          map[string]string
	Query                            []string
	TimeoutMs                        int
}

func extraToolOf(h *host, toolkit string, et extraTool) (toolnexus.Tool, error) {
	switch et.Kind {
	case "native":
		return nativeTool(h, toolkit, et)
	case "http":
		return toolnexus.HTTPTool(toolnexus.HTTPToolOptions{Name: et.Name, Description: et.Description,
			Method: et.Method, URL: et.URL, Headers: et.Headers, Query: et.Query, Body: et.Body,
			InputSchema: et.InputSchema, Timeout: et.TimeoutMs, ResultMode: et.ResultMode}), nil
	}
	return hostTool(h, toolkit, et.Name, et.Description, et.InputSchema), nil
}

// toolkitRef names a toolkit the op works on.
type toolkitRef struct{ Toolkit string }

// describeToolkit reports the library's tool list as its JSON tags spell it, and the status.
func describeToolkit(k *kit, x toolkitRef, _ request) (any, error) {
	tk, err := lookup[*toolnexus.Toolkit](k.handles, x.Toolkit)
	if err != nil {
		return nil, err
	}
	tools := []any{}
	for _, t := range tk.Tools() {
		tools = append(tools, map[string]any{"name": t.Name, "description": t.Description,
			"inputSchema": map[string]any(t.InputSchema), "source": string(t.Source)})
	}
	return map[string]any{"tools": tools, "status": loaded(nil, tk.McpStatus())["status"]}, nil
}

// executeArgs name the tool and keep its args raw, so absent, null and numbers survive.
type executeArgs struct {
	Toolkit, Name string
	Args          json.RawMessage
}

// executeTool runs Toolkit.Execute; absent or null args are a nil map, and numbers keep
// their text (json.Number), so what the model wrote is what the port gets.
func executeTool(k *kit, x executeArgs, _ request) (any, error) {
	tk, err := lookup[*toolnexus.Toolkit](k.handles, x.Toolkit)
	if err != nil {
		return nil, err
	}
	var in map[string]any
	if len(x.Args) > 0 {
		dec := json.NewDecoder(bytes.NewReader(x.Args))
		dec.UseNumber()
		if err := dec.Decode(&in); err != nil {
			return nil, adapterErr("failed", "adapter: args: "+err.Error())
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := tk.Execute(ctx, x.Name, in)
	if err != nil {
		return nil, err
	}
	return res, nil // ToolResult's JSON tags: output, isError, metadata (omitted when nil)
}

func schemaAdapters(k *kit, x toolkitRef, _ request) (any, error) {
	tk, err := lookup[*toolnexus.Toolkit](k.handles, x.Toolkit)
	if err != nil {
		return nil, err
	}
	return map[string]any{"openai": tk.ToOpenAI(), "anthropic": tk.ToAnthropic(), "gemini": tk.ToGemini()}, nil
}

func sanitize(_ *kit, x struct{ Value string }, _ request) (any, error) {
	return map[string]any{"value": toolnexus.Sanitize(x.Value)}, nil
}

// toolkitArgs are toolkit.create's own options: the builtins option as given (absent: off;
// builtinsDefault: none at all) and the extra tools.
type toolkitArgs struct {
	timing
	Handle          string
	Builtins        json.RawMessage
	BuiltinsDefault bool
	ExtraTools      []extraTool
}

// builtins is the port's Builtins option: the JSON as decoded (a bool, or a map[string]any
// whose tools map is a map[string]any, the form the Go port reads), false when absent, and
// nil (the library's default) for builtinsDefault.
func (x toolkitArgs) builtins() any {
	switch {
	case x.BuiltinsDefault:
		return nil
	case len(x.Builtins) == 0:
		return false
	}
	var v any
	if err := json.Unmarshal(x.Builtins, &v); err != nil {
		return false // the runner validated it as a boolean or an object
	}
	return v
}

// createToolkit builds a toolkit with skills and builtins as asked (both off by default),
// through the context-aware CreateToolkit; its own extra tools come first, then what the
// other areas add. Host tools call back (host.go).
func createToolkit(k *kit, x toolkitArgs, r request) (any, error) {
	opts := toolnexus.Options{Builtins: x.builtins()}
	for _, et := range x.ExtraTools {
		t, err := extraToolOf(k.host, x.Handle, et)
		if err != nil {
			return nil, err
		}
		opts.ExtraTools = append(opts.ExtraTools, t)
	}
	if err := toolkitOptions(k, x.Handle, r.Args, &opts); err != nil {
		return nil, err
	}
	ctx, cancel := x.context()
	defer cancel()
	tk, err := toolnexus.CreateToolkit(ctx, opts)
	if err != nil || tk == nil { // no handle is kept
		return none, err
	}
	keep(k.handles, x.Handle, tk, func() { tk.Close() })
	return loaded(tk.Tools(), tk.McpStatus()), nil
}

func closeToolkit(k *kit, x toolkitRef, _ request) (any, error) {
	release[*toolnexus.Toolkit](k.handles, x.Toolkit)
	return nil, nil
}

// hostTool is a host tool whose execute calls back.
func hostTool(h *host, toolkit, name, description string, schema map[string]any) toolnexus.Tool {
	return toolnexus.Tool{Name: name, Description: description, InputSchema: schema, Source: toolnexus.SourceCustom,
		Execute: func(input map[string]any, _ *toolnexus.ToolContext) (toolnexus.ToolResult, error) {
			var out string
			_, err := h.call(slotTool, map[string]any{"toolkit": toolkit, "name": name, "input": input}, &out)
			return toolnexus.ToolResult{Output: out}, err
		}}
}

// nativeTool builds a native tool whose function calls back: the answer is what it returns, an
// answer with ok false is the error it returns. NativeTool returns strings only, so a whole
// ToolResult is a Tool literal with the native source, and an object cannot be expressed.
func nativeTool(h *host, toolkit string, et extraTool) (toolnexus.Tool, error) {
	call := func(input map[string]any, v any) error {
		_, err := h.call(slotTool, map[string]any{"toolkit": toolkit, "name": et.Name, "input": input}, v)
		return err
	}
	switch et.Returns {
	case "", "string":
		return toolnexus.NativeTool(et.Name, et.Description, et.InputSchema,
			func(_ context.Context, input map[string]any) (string, error) {
				var out string
				err := call(input, &out)
				return out, err
			}), nil
	case "result":
		// Only through the port's own helper: an adapter never builds a Tool to stand in for
		// one the port lacks (native_result*.go, chosen by prepare).
		return nativeResult(et.Name, et.Description, et.InputSchema, call)
	}
	return toolnexus.Tool{}, adapterErr("unsupported", "adapter: the Go port's NativeTool returns a string; a function returning "+et.Returns+" cannot be declared")
}
