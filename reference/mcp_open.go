package toolnexus

import (
	"context"
	"encoding/json"
	"fmt"
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
// list-only inventory share it. A server's own failure only marks it failed (and is warned
// about); the caller's ctx ending fails the whole call with ctx.Err(), after everything
// started has been torn down.
func openServers(ctx context.Context, cfg McpConfig) ([]*openedServer, map[string]McpStatus, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	status := map[string]McpStatus{}
	var opened []*openedServer
	var wg sync.WaitGroup
	for _, name := range sortedKeys(cfg) {
		sc := cfg[name]
		if !sc.isEnabled() {
			status[name] = StatusDisabled
			continue
		}
		o := &openedServer{name: name, cfg: sc}
		opened = append(opened, o)
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
			Warnf("[toolnexus] MCP server %q failed: %v", o.name, o.err)
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

// objectSchema copies a listed input schema and makes it an object schema with properties,
// the shape every port hands to the model.
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
