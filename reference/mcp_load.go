package toolnexus

import (
	"context"
	"encoding/json"
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
// own failure marks it failed, while ctx ending fails the load with ctx.Err().
func LoadMcpWithContext(ctx context.Context, input any) (*McpSource, error) {
	cfg, err := ParseMcpConfig(input)
	if err != nil {
		return nil, err
	}
	opened, status, err := openServers(ctx, cfg)
	if err != nil {
		return nil, err
	}
	src := &McpSource{Tools: []Tool{}, Status: status}
	for _, o := range opened {
		src.servers = append(src.servers, o.live)
		for _, def := range filterMcpTools(o.name, o.defs, o.cfg.Tools) {
			src.Tools = append(src.Tools, wrapMcpTool(o.name, def, o.live, o.cfg.timeout()))
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
func wrapMcpTool(server string, def *mcp.Tool, live *liveServer, timeout time.Duration) Tool {
	original := def.Name
	schema := mcpObjectSchema(def.InputSchema)
	schema["additionalProperties"] = false
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
			res, err := live.session.CallTool(ctx, &mcp.CallToolParams{Name: original, Arguments: args})
			if err != nil {
				return ToolResult{Output: err.Error(), IsError: true, Metadata: meta}, nil
			}
			return mcpToolResult(res, meta), nil
		},
	}
}

// toolResult maps a tools/call result the way every port does: error text, else structured
// content as JSON, else the text parts.
func mcpToolResult(res *mcp.CallToolResult, meta map[string]any) ToolResult {
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
		data, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return ToolResult{Output: err.Error(), IsError: true, Metadata: meta}
		}
		return ToolResult{Output: string(data), Metadata: meta}
	}
	return ToolResult{Output: strings.Join(mcpTextParts(res.Content), "\n"), Metadata: meta}
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
