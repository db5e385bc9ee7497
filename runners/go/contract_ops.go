package main

import (
	"bytes"
	"context"
	"encoding/json"
	"time"

	toolnexus "github.com/muthuishere/toolnexus/golang"
)

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

func (a *adapter) extraTool(toolkit string, et extraTool) (toolnexus.Tool, error) {
	switch et.Kind {
	case "native":
		return a.host.native(toolkit, et)
	case "http":
		return toolnexus.HTTPTool(toolnexus.HTTPToolOptions{Name: et.Name, Description: et.Description,
			Method: et.Method, URL: et.URL, Headers: et.Headers, Query: et.Query, Body: et.Body,
			InputSchema: et.InputSchema, Timeout: et.TimeoutMs, ResultMode: et.ResultMode}), nil
	}
	return a.host.tool(toolkit, et.Name, et.Description, et.InputSchema), nil
}

func (a *adapter) toolkit(handle string) (*toolnexus.Toolkit, error) {
	tk, ok := a.toolkits[handle]
	if !ok {
		return nil, adapterErr("failed", "adapter: no toolkit "+handle)
	}
	return tk, nil
}

// opToolkitDescribe reports the library's tool list as its JSON tags spell it, and the status.
func opToolkitDescribe(a *adapter, x args, _ string) (any, error) {
	tk, err := a.toolkit(x.Toolkit)
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

// opToolExecute runs Toolkit.Execute; absent or null args are a nil map, and numbers keep
// their text (json.Number), so what the model wrote is what the port gets.
func opToolExecute(a *adapter, x args, _ string) (any, error) {
	tk, err := a.toolkit(x.Toolkit)
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

func opAdapters(a *adapter, x args, _ string) (any, error) {
	tk, err := a.toolkit(x.Toolkit)
	if err != nil {
		return nil, err
	}
	return map[string]any{"openai": tk.ToOpenAI(), "anthropic": tk.ToAnthropic(), "gemini": tk.ToGemini()}, nil
}

func opSanitize(_ *adapter, x args, _ string) (any, error) {
	return map[string]any{"value": toolnexus.Sanitize(x.Value)}, nil
}
