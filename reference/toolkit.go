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
	// ExtraTools are host-supplied tools, placed after the MCP tools and the builtins; one
	// named like a builtin replaces it.
	ExtraTools []Tool
	// Builtins toggles the ten built-in tools (§4, §4A), which are on by default: nil or
	// true means on; false or "off" means off; a BuiltinsConfig or map[string]any
	// ({disabled, enabled, tools}) turns the source off or drops single tools. When nil, a
	// top-level "builtins" key of an inline or []byte McpConfig is read instead.
	Builtins any
	// DisableTools removes tools by their final (prefixed) name.
	DisableTools []string
	// SkillsDir turns the skill source on (§3): every **/SKILL.md under these roots, the
	// first root's skill winning a name. SkillsFilter selects skills by name as an MCP
	// server's tools map does; SkillSampleLimit caps the sibling files the skill tool lists
	// (0: 10; -1: none).
	SkillsDir        []string
	SkillsFilter     map[string]bool
	SkillSampleLimit int
}

// Toolkit is the set of tools a client may offer the model.
type Toolkit struct {
	tools   []Tool
	sources []*McpSource
	status  map[string]McpStatus
	skills  *skillSource // nil: no skill source (SkillsPrompt is "")
}

// CreateToolkit loads the MCP config (bounded by ctx) and assembles the tools (§4): the
// MCP tools, the skill tool, then the builtins an extra tool does not replace, then the
// extra tools; the first tool with a name wins.
func CreateToolkit(ctx context.Context, opts Options) (*Toolkit, error) {
	// The toggle is read first, so a bad one fails before any server is started.
	toggle, err := resolveBuiltins(opts.Builtins, opts.McpConfig)
	if err != nil {
		return nil, err
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
	if len(opts.SkillsDir) > 0 {
		tk.skills = loadSkills(opts.SkillsDir, opts.SkillsFilter, opts.SkillSampleLimit)
		tk.tools = append(tk.tools, tk.skills.tool())
	}
	tk.tools = append(tk.tools, withoutShadowed(toggle.tools(), opts.ExtraTools)...)
	tk.tools = assembleTools(tk.tools, opts.ExtraTools, opts.DisableTools)
	return tk, nil
}

// assembleTools walks the MCP tools (and the builtins after them), then the extra tools
// in the order given, dropping disabled names. The first tool with a name wins (§4) and
// each later one is reported, since a silently dropped tool is a support case (C2.7). Names are used as given:
// extra tools are never sanitized (C2.10).
func assembleTools(mcp, extra []Tool, disable []string) []Tool {
	off := make(map[string]bool, len(disable))
	for _, n := range disable {
		off[n] = true
	}
	seen := map[string]bool{}
	out := make([]Tool, 0, len(mcp)+len(extra))
	for _, t := range append(append([]Tool(nil), mcp...), extra...) {
		switch {
		case off[t.Name]:
		case seen[t.Name]:
			Warnf("[toolnexus] duplicate tool name %q — keeping first", t.Name)
		default:
			seen[t.Name] = true
			out = append(out, t)
		}
	}
	return out
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

// Execute runs a tool by name. An unknown name is the model's mistake, so it is an error
// result the loop feeds back, not a Go error (C1.4). Nil args reach the tool as {}, since
// argument-free calls are the usual case and MCP wants an object (C1.5). A Go error the
// tool itself returns is passed on unchanged, as the published port does.
func (tk *Toolkit) Execute(ctx context.Context, name string, args map[string]any) (ToolResult, error) {
	return tk.execute(ctx, name, args, nil)
}

// execute runs a tool; answer is set on the run after a suspension was resolved (§10).
func (tk *Toolkit) execute(ctx context.Context, name string, args map[string]any, answer *Answer) (ToolResult, error) {
	t, ok := tk.Get(name)
	if !ok {
		return ToolResult{Output: "Unknown tool: " + name, IsError: true}, nil
	}
	if t.Execute == nil {
		return ToolResult{Output: fmt.Sprintf("tool %q has no Execute function", name), IsError: true}, nil
	}
	if args == nil {
		args = map[string]any{}
	}
	return t.Execute(args, &ToolContext{Ctx: ctx, Answer: answer})
}

// ToOpenAI renders the tools in the OpenAI function-calling shape.
func (tk *Toolkit) ToOpenAI() []any { return ToOpenAI(tk.Tools()) }

// ToAnthropic renders the tools in the Anthropic tool shape.
func (tk *Toolkit) ToAnthropic() []any { return ToAnthropic(tk.Tools()) }

// ToGemini renders the tools in the Gemini shape: one element wrapping them all.
func (tk *Toolkit) ToGemini() []any { return ToGemini(tk.Tools()) }

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

// sortedKeys gives deterministic iteration over server maps.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
