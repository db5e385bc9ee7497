package toolnexus

import (
	"context"
	"fmt"
	"sort"
)

// Options configures CreateToolkit. Only the ADR 0001 slice is implemented.
type Options struct {
	// McpConfig is a file path (string), raw JSON ([]byte), a McpConfig value or an inline map.
	McpConfig any
	// ExtraTools are host-supplied tools added beside the MCP ones.
	ExtraTools []Tool
	// Builtins must be nil, false or "off": the reference ships no builtins.
	Builtins any
	// DisableTools removes tools by their final (prefixed) name.
	DisableTools []string
}

// Toolkit is the set of tools a client may offer the model.
type Toolkit struct {
	tools   []Tool
	sources []*McpSource
	status  map[string]McpStatus
}

// CreateToolkit loads the MCP config (bounded by ctx) and assembles the tools.
func CreateToolkit(ctx context.Context, opts Options) (*Toolkit, error) {
	switch b := opts.Builtins.(type) {
	case nil:
	case bool:
		if b {
			return nil, fmt.Errorf("toolnexus: Builtins: the reference ships no builtins; use false or \"off\"")
		}
	case string:
		if b != "off" {
			return nil, fmt.Errorf("toolnexus: Builtins: %q is not supported; use false or \"off\"", b)
		}
	default:
		return nil, fmt.Errorf("toolnexus: Builtins: %T is not supported; use false or \"off\"", opts.Builtins)
	}
	tk := &Toolkit{status: map[string]McpStatus{}}
	if opts.McpConfig != nil {
		src, err := LoadMcpWithContext(ctx, opts.McpConfig)
		if err != nil {
			return nil, err
		}
		tk.sources = append(tk.sources, src)
		tk.tools = append(tk.tools, src.Tools...)
		for k, v := range src.Status {
			tk.status[k] = v
		}
	}
	tk.tools = append(tk.tools, opts.ExtraTools...)
	if len(opts.DisableTools) > 0 {
		off := map[string]bool{}
		for _, n := range opts.DisableTools {
			off[n] = true
		}
		kept := tk.tools[:0]
		for _, t := range tk.tools {
			if !off[t.Name] {
				kept = append(kept, t)
			}
		}
		tk.tools = kept
	}
	return tk, nil
}

// Tools returns the toolkit's tools in load order.
func (tk *Toolkit) Tools() []Tool {
	if tk == nil {
		return nil
	}
	return append([]Tool(nil), tk.tools...)
}

// Get finds a tool by its final name.
func (tk *Toolkit) Get(name string) (Tool, bool) {
	if tk == nil {
		return Tool{}, false
	}
	for _, t := range tk.tools {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

// Execute runs a tool by name; an unknown name is an error result, not a Go error.
func (tk *Toolkit) Execute(ctx context.Context, name string, args map[string]any) (ToolResult, error) {
	t, ok := tk.Get(name)
	if !ok || t.Execute == nil {
		return ToolResult{Output: fmt.Sprintf("unknown tool %q", name), IsError: true}, nil
	}
	return t.Execute(args, &ToolContext{Ctx: ctx})
}

// ToOpenAI renders the tools in the OpenAI function-calling shape.
func (tk *Toolkit) ToOpenAI() []any { return ToOpenAI(tk.Tools()) }

// ToAnthropic renders the tools in the Anthropic tool shape.
func (tk *Toolkit) ToAnthropic() []any { return ToAnthropic(tk.Tools()) }

// McpStatus returns a copy of each MCP server's state.
func (tk *Toolkit) McpStatus() map[string]McpStatus {
	out := map[string]McpStatus{}
	if tk != nil {
		for k, v := range tk.status {
			out[k] = v
		}
	}
	return out
}

// Close disconnects every MCP server the toolkit loaded.
func (tk *Toolkit) Close() {
	if tk == nil {
		return
	}
	for _, s := range tk.sources {
		s.Close()
	}
	tk.sources = nil
}

// ToOpenAI renders tools as [{type:function, function:{name, description, parameters}}].
func ToOpenAI(tools []Tool) []any {
	out := make([]any, 0, len(tools))
	for _, t := range tools {
		out = append(out, map[string]any{
			"type": "function",
			"function": map[string]any{
				"name":        t.Name,
				"description": t.Description,
				"parameters":  schemaOrEmpty(t.InputSchema),
			},
		})
	}
	return out
}

// ToAnthropic renders tools as [{name, description, input_schema}].
func ToAnthropic(tools []Tool) []any {
	out := make([]any, 0, len(tools))
	for _, t := range tools {
		out = append(out, map[string]any{
			"name":         t.Name,
			"description":  t.Description,
			"input_schema": schemaOrEmpty(t.InputSchema),
		})
	}
	return out
}

func schemaOrEmpty(s JSONSchema) JSONSchema {
	if s == nil {
		return JSONSchema{"type": "object", "properties": map[string]any{}}
	}
	return s
}

// sortedKeys gives deterministic iteration over server maps.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
