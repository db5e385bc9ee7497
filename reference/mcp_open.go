package toolnexus

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// openedServer is one enabled server after connect and list; live is nil when it failed.
type openedServer struct {
	name string
	cfg  ServerConfig
	live *liveServer
	defs []*mcp.Tool
	err  error
}

// openServers connects to and lists every enabled server in parallel; the loader and the
// list-only inventory share it. The servers come back in config order, however late each
// answered. A server's own failure (a malformed entry included) only marks it failed and is
// warned about; the caller's ctx ending fails the whole call with ctx.Err(), after
// everything started has been torn down.
func openServers(ctx context.Context, entries []mcpEntry) ([]*openedServer, map[string]McpStatus, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	status := map[string]McpStatus{}
	var opened []*openedServer
	var wg sync.WaitGroup
	for _, e := range entries {
		name, sc := e.name, e.cfg
		if !sc.isEnabled() {
			status[name] = StatusDisabled
			continue
		}
		o := &openedServer{name: name, cfg: sc}
		opened = append(opened, o)
		if o.err = sc.check(); o.err != nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			o.live, o.defs, o.err = openOne(ctx, sc)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		closeMcpServers(liveServersOf(opened), true)
		return nil, nil, err
	}
	ok := opened[:0]
	for _, o := range opened {
		if o.err != nil {
			status[o.name] = StatusFailed
			_, secrets := expandMcpHeaders(o.cfg.Headers)
			Warnf("[toolnexus] MCP server %q failed: %s", o.name, redactMcp(o.err.Error(), secrets))
			continue
		}
		status[o.name] = StatusConnected
		ok = append(ok, o)
	}
	return ok, status, nil
}

func openOne(ctx context.Context, cfg ServerConfig) (*liveServer, []*mcp.Tool, error) {
	live, err := connectServer(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	budget, cancel := context.WithTimeoutCause(ctx, cfg.timeout(), errMcpServerTimeout)
	defer cancel()
	defs, err := listAllTools(budget, live.session)
	if err != nil {
		live.abort()
		return nil, nil, fmt.Errorf("list tools: %w", mcpBudgetErr(budget, cfg, "tools/list", err))
	}
	return live, defs, nil
}

func liveServersOf(opened []*openedServer) []*liveServer {
	var out []*liveServer
	for _, o := range opened {
		if o.live != nil {
			out = append(out, o.live)
		}
	}
	return out
}

// redactMcp hides every value a header expansion put in, longest first so a value that
// contains another is hidden whole.
func redactMcp(msg string, secrets []string) string {
	if len(secrets) == 0 {
		return msg
	}
	s := append([]string(nil), secrets...)
	sort.Slice(s, func(i, j int) bool { return len(s[i]) > len(s[j]) })
	for _, v := range s {
		if v != "" {
			msg = strings.ReplaceAll(msg, v, "[redacted]")
		}
	}
	return msg
}

// mcpObjectSchema copies a listed input schema, every key kept, and makes it an object
// schema with properties ({} when missing), the shape every port hands to the model.
func mcpObjectSchema(raw any) JSONSchema {
	out := JSONSchema{}
	switch s := raw.(type) {
	case map[string]any:
		for k, v := range s {
			out[k] = v
		}
	case nil:
	default:
		// Anything else the SDK hands back is normalised through JSON.
		var m map[string]any
		if data, err := json.Marshal(s); err == nil && json.Unmarshal(data, &m) == nil {
			for k, v := range m {
				out[k] = v
			}
		}
	}
	out["type"] = "object"
	if out["properties"] == nil {
		out["properties"] = map[string]any{}
	}
	return out
}
