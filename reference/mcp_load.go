package toolnexus

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// McpSource is the outcome of a load: the tools of every connected server and each
// server's status. Close it to disconnect.
type McpSource struct {
	// Tools are the filtered tools of every connected server, named server_tool.
	Tools []Tool
	// Status is connected, disabled or failed for every configured server.
	Status map[string]McpStatus

	servers []*liveServer
	once    sync.Once
}

// Close disconnects every server; stdio children are stopped and reaped. Safe to repeat.
func (s *McpSource) Close() {
	if s == nil {
		return
	}
	s.once.Do(func() { closeMcpServers(s.servers, false) })
}

// LoadMcp is LoadMcpWithContext with context.Background(), for callers without a ctx.
func LoadMcp(input any) (*McpSource, error) {
	return LoadMcpWithContext(context.Background(), input)
}

// LoadMcpWithContext connects to every enabled server in parallel, lists and filters its
// tools and wraps them. Each phase is bounded by the server's timeout and by ctx; a server's
// own failure (a malformed entry included) marks it failed, while ctx ending fails the load
// with ctx.Err().
//
// The tools are grouped by server in config order (the order a file or []byte is written
// in; sorted names for a Go map), each group in the server's listing order, however late a
// server answers. A later tool whose exposed name is already taken is dropped with a warning.
func LoadMcpWithContext(ctx context.Context, input any) (*McpSource, error) {
	entries, err := parseMcpEntries(input)
	if err != nil {
		return nil, err
	}
	opened, status, err := openServers(ctx, entries)
	if err != nil {
		return nil, err
	}
	taken := map[string]bool{}
	src := &McpSource{Tools: []Tool{}, Status: status}
	for _, o := range opened {
		src.servers = append(src.servers, o.live)
		for _, def := range filterMcpTools(o.name, o.defs, o.cfg.Tools) {
			tool := wrapMcpTool(o.name, def, o.live, o.cfg)
			if taken[tool.Name] {
				Warnf("[toolnexus] duplicate tool name %q — keeping first", tool.Name)
				continue
			}
			taken[tool.Name] = true
			src.Tools = append(src.Tools, tool)
		}
	}
	return src, nil
}

// filterTools applies a server's tools map to its listed tools by ORIGINAL name (before
// sanitize and prefix), warning once for each key that matched no tool.
func filterMcpTools(server string, defs []*mcp.Tool, filter map[string]bool) []*mcp.Tool {
	if len(filter) == 0 {
		return defs
	}
	allowlist := false
	for _, on := range filter {
		allowlist = allowlist || on
	}
	listed := map[string]bool{}
	for _, d := range defs {
		listed[d.Name] = true
	}
	for _, k := range sortedKeys(filter) {
		if !listed[k] {
			Warnf("[toolnexus] server %q tools filter name %q matched no tool", server, k)
		}
	}
	var kept []*mcp.Tool
	for _, d := range defs {
		on, named := filter[d.Name]
		if (allowlist && on) || (!allowlist && !named) {
			kept = append(kept, d)
		}
	}
	return kept
}

// wrapMcpTool exposes one listed tool as server_tool; Execute calls tools/call on the session.
func wrapMcpTool(server string, def *mcp.Tool, live *liveServer, cfg ServerConfig) Tool {
	original := def.Name
	schema := mcpObjectSchema(def.InputSchema)
	schema["additionalProperties"] = false
	timeout := cfg.timeout()
	_, secrets := expandMcpHeaders(cfg.Headers)
	output := compileMcpOutputSchema(server, original, def.OutputSchema)
	return Tool{
		Name:        Sanitize(server) + "_" + Sanitize(original),
		Description: def.Description,
		InputSchema: schema,
		Source:      SourceMCP,
		Execute: func(args map[string]any, tc *ToolContext) (ToolResult, error) {
			parent, limit := context.Background(), timeout
			if tc != nil {
				if tc.Ctx != nil {
					parent = tc.Ctx
				}
				if tc.Timeout > 0 {
					limit = time.Duration(tc.Timeout) * time.Millisecond
				}
			}
			ctx, cancel := context.WithTimeout(parent, limit)
			defer cancel()
			if args == nil {
				args = map[string]any{}
			}
			meta := map[string]any{"server": server}
			slot := &mcpRawSlot{}
			res, err := live.session.CallTool(context.WithValue(ctx, mcpRawKey{}, slot), &mcp.CallToolParams{Name: original, Arguments: args})
			live.raw.drop(slot)
			if err == nil && res == nil {
				err = errors.New("MCP server sent no result")
			}
			if err != nil {
				return ToolResult{Output: mcpErrorText(err, secrets), IsError: true, Metadata: meta}, nil
			}
			out := mcpToolResult(res, slot.get(), meta)
			if !out.IsError {
				if bad := output.check(original, res.StructuredContent); bad != nil {
					return ToolResult{Output: redactMcp(bad.Error(), secrets), IsError: true, Metadata: meta}, nil
				}
			}
			return out, nil
		},
	}
}

// mcpErrorText is a failed call's output: never empty, never a header secret.
func mcpErrorText(err error, secrets []string) string {
	msg := redactMcp(err.Error(), secrets)
	if strings.TrimSpace(msg) == "" {
		msg = "MCP tool call failed"
	}
	return msg
}

// mcpToolResult maps a tools/call result as the upstream reference does, in this order:
// isError gives the non-blank text parts joined by a blank line (or a fixed message);
// structuredContent, when present and not null, gives its JSON.stringify text, made from
// the raw bytes the server sent when they were seen; else the text parts joined by "\n".
func mcpToolResult(res *mcp.CallToolResult, raw json.RawMessage, meta map[string]any) ToolResult {
	if res.IsError {
		var parts []string
		for _, t := range mcpTextParts(res.Content) {
			if strings.TrimSpace(t) != "" {
				parts = append(parts, t)
			}
		}
		msg := strings.Join(parts, "\n\n")
		if msg == "" {
			msg = "MCP tool returned an error"
		}
		return ToolResult{Output: msg, IsError: true, Metadata: meta}
	}
	if res.StructuredContent != nil {
		text, err := mcpStructuredText(res.StructuredContent, raw)
		if err != nil {
			return ToolResult{Output: err.Error(), IsError: true, Metadata: meta}
		}
		return ToolResult{Output: text, Metadata: meta}
	}
	return ToolResult{Output: strings.Join(mcpTextParts(res.Content), "\n"), Metadata: meta}
}

// mcpStructuredText renders structuredContent from the result's raw bytes when there are
// some; otherwise from the decoded value (whose key order is lost: sorted).
func mcpStructuredText(decoded any, raw json.RawMessage) (string, error) {
	if len(raw) > 0 {
		var fields struct {
			StructuredContent json.RawMessage `json:"structuredContent"`
		}
		if json.Unmarshal(raw, &fields) == nil && len(fields.StructuredContent) > 0 && !isMcpJSONNull(fields.StructuredContent) {
			if text, err := jsStringifyRaw(fields.StructuredContent); err == nil {
				return text, nil
			}
		}
	}
	data, err := json.Marshal(decoded)
	if err != nil {
		return "", err
	}
	return jsStringifyRaw(data)
}

func mcpTextParts(content []mcp.Content) []string {
	var out []string
	for _, c := range content {
		if t, ok := c.(*mcp.TextContent); ok {
			out = append(out, t.Text)
		}
	}
	return out
}
