package toolnexus

import (
	"encoding/json"
	"fmt"
	"strings"
)

// BuiltinsConfig is the object form of the builtins toggle (§4): Disabled true or
// Enabled false turns the whole source off (disabled wins, as for an MCP server);
// otherwise Tools maps a builtin's name to false to drop it. Names that are no builtin
// are ignored.
type BuiltinsConfig struct {
	Enabled  *bool           `json:"enabled,omitempty"`
	Disabled *bool           `json:"disabled,omitempty"`
	Tools    map[string]bool `json:"tools,omitempty"`
}

// builtinNames is the fixed order of §4A; tests and the assembly rely on it.
var builtinNames = []string{"bash", "read", "write", "edit", "grep", "glob", "webfetch", "question", "apply_patch", "todowrite"}

// CreateBuiltinTools returns fresh copies of the ten built-in tools in §4A order, all with
// source "builtin". Each call builds new schema maps, so a caller may edit its copy.
func CreateBuiltinTools() []Tool {
	return []Tool{
		bashTool(), readTool(), writeTool(), editTool(), grepTool(),
		globTool(), webfetchTool(), questionTool(), applyPatchTool(), todowriteTool(),
	}
}

// builtinToggle is a resolved toggle: the source on or off, and the names it drops.
type builtinToggle struct {
	off  bool
	drop map[string]bool
}

// tools is the builtin source under the toggle, in §4A order.
func (bt builtinToggle) tools() []Tool {
	if bt.off {
		return nil
	}
	var out []Tool
	for _, t := range CreateBuiltinTools() {
		if !bt.drop[t.Name] {
			out = append(out, t)
		}
	}
	return out
}

// resolveBuiltins picks the toggle: Options.Builtins when set, else a top-level
// "builtins" key of a parsed (inline or []byte) MCP config, else on (§4).
func resolveBuiltins(opt, mcpConfig any) (builtinToggle, error) {
	if !builtinsUnset(opt) {
		t, err := parseBuiltinsToggle(opt)
		if err != nil {
			return t, fmt.Errorf("toolnexus: Builtins: %w", err)
		}
		return t, nil
	}
	v, found := builtinsKeyOf(mcpConfig)
	if !found {
		return builtinToggle{}, nil
	}
	t, err := parseBuiltinsToggle(v)
	if err != nil {
		return t, fmt.Errorf("toolnexus: MCP config \"builtins\": %w", err)
	}
	return t, nil
}

func builtinsUnset(v any) bool {
	p, isPtr := v.(*BuiltinsConfig)
	return v == nil || (isPtr && p == nil)
}

// builtinsKeyOf reads the "builtins" key beside the servers of a config object. A file
// path is not read here (only an object the host already holds counts as parsed, as
// upstream); JSON that does not parse is left for the MCP load to report.
func builtinsKeyOf(cfg any) (any, bool) {
	var data []byte
	switch c := cfg.(type) {
	case map[string]any:
		v, ok := c["builtins"]
		return v, ok && v != nil
	case []byte:
		data = c
	case json.RawMessage:
		data = c
	default:
		return nil, false
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return nil, false
	}
	raw, ok := top["builtins"]
	if !ok {
		return nil, false
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil || v == nil {
		return nil, false
	}
	return v, true
}

// parseBuiltinsToggle reads one toggle value. enabled/disabled count only as booleans
// (the reading an MCP server entry has); a tools map must hold booleans, because a
// mistyped entry meant to switch bash off must not leave it on silently. A source that
// is off never has its tools map read.
func parseBuiltinsToggle(v any) (builtinToggle, error) {
	switch b := v.(type) {
	case nil:
		return builtinToggle{}, nil
	case bool:
		return builtinToggle{off: !b}, nil
	case string:
		if b == "off" {
			return builtinToggle{off: true}, nil
		}
		return builtinToggle{}, fmt.Errorf("string %q is not a toggle (want false, \"off\", true or an object)", b)
	case BuiltinsConfig:
		return toggleOf(b), nil
	case *BuiltinsConfig:
		if b == nil {
			return builtinToggle{}, nil
		}
		return toggleOf(*b), nil
	case map[string]any:
		var cfg BuiltinsConfig
		if d, ok := b["disabled"].(bool); ok {
			cfg.Disabled = &d
		}
		if e, ok := b["enabled"].(bool); ok {
			cfg.Enabled = &e
		}
		if toggleOf(cfg).off {
			return builtinToggle{off: true}, nil
		}
		tools, err := builtinsToolsMap(b["tools"])
		if err != nil {
			return builtinToggle{}, err
		}
		cfg.Tools = tools
		return toggleOf(cfg), nil
	default:
		return builtinToggle{}, fmt.Errorf("%T is not supported (want nil, a bool, \"off\", BuiltinsConfig or map[string]any)", v)
	}
}

func toggleOf(c BuiltinsConfig) builtinToggle {
	if (c.Disabled != nil && *c.Disabled) || (c.Enabled != nil && !*c.Enabled) {
		return builtinToggle{off: true}
	}
	drop := map[string]bool{}
	for name, on := range c.Tools {
		if !on {
			drop[name] = true
		}
	}
	return builtinToggle{drop: drop}
}

func builtinsToolsMap(v any) (map[string]bool, error) {
	switch m := v.(type) {
	case nil:
		return nil, nil
	case map[string]bool:
		return m, nil
	case map[string]any:
		out := make(map[string]bool, len(m))
		for _, name := range sortedKeys(m) {
			on, ok := m[name].(bool)
			if !ok {
				return nil, fmt.Errorf("\"tools\" entry %q must be true or false, got %T", name, m[name])
			}
			out[name] = on
		}
		return out, nil
	default:
		return nil, fmt.Errorf("\"tools\" must be an object of booleans, got %T", v)
	}
}

// withoutShadowed drops each builtin an extra tool names: a host that ships its own
// (say, a sandboxed bash) replaces ours, in its own place among the extras (§4 step 1).
func withoutShadowed(builtins, extra []Tool) []Tool {
	taken := make(map[string]bool, len(extra))
	for _, t := range extra {
		taken[t.Name] = true
	}
	out := make([]Tool, 0, len(builtins))
	for _, t := range builtins {
		if !taken[t.Name] {
			out = append(out, t)
		}
	}
	return out
}

// builtinTool wraps a builtin's body: nil args become {}, and a panic becomes an error
// result, so nothing a model sends can break the caller (§4A).
func builtinTool(name, description string, schema JSONSchema, run func(args map[string]any, tc *ToolContext) ToolResult) Tool {
	return Tool{
		Name:        name,
		Description: description,
		InputSchema: schema,
		Source:      SourceBuiltin,
		Execute: func(args map[string]any, tc *ToolContext) (res ToolResult, err error) {
			defer func() {
				if r := recover(); r != nil {
					res = ToolResult{Output: fmt.Sprintf("%s: internal error: %v", name, r), IsError: true}
				}
			}()
			if args == nil {
				args = map[string]any{}
			}
			return run(args, tc), nil
		},
	}
}

// objectSchema is the schema shape every builtin uses; extra keys are refused, as for MCP.
func objectSchema(props map[string]any, required ...string) JSONSchema {
	s := JSONSchema{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

func prop(typ, description string) map[string]any {
	return map[string]any{"type": typ, "description": description}
}

func failf(format string, a ...any) ToolResult {
	return ToolResult{Output: fmt.Sprintf(format, a...), IsError: true}
}
