package main

import (
	"context"
	"time"

	toolnexus "github.com/muthuishere/toolnexus/golang"
)

// The mcp area: load and list-only, and the MCP config and limits a toolkit build shares.

// none is a load that returned neither a result nor an error: null, never an empty success.
var none = map[string]any{"tools": nil, "status": nil}

// mcpConfig is what the port's McpConfig receives: the path for {file}, the object for
// {inline}, an untyped nil when absent (so the port sees no config, not a typed nil).
func (x args) mcpConfig() any {
	if c := x.McpConfig; c != nil && c.File != nil {
		return *c.File
	} else if c != nil {
		return c.Inline
	}
	return nil
}

// context is the caller's: cancelAfterMs fires a timer started now (0: cancelled before the
// port is called, never a race), deadlineMs sets a deadline. Call the cancel when done.
func (x args) context() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	stop := func() bool { return false }
	if x.CancelAfterMs != nil && *x.CancelAfterMs <= 0 {
		cancel()
	} else if x.CancelAfterMs != nil {
		stop = time.AfterFunc(time.Duration(*x.CancelAfterMs)*time.Millisecond, cancel).Stop
	}
	if x.DeadlineMs == nil {
		return ctx, func() { stop(); cancel() }
	}
	dctx, dcancel := context.WithTimeout(ctx, time.Duration(*x.DeadlineMs)*time.Millisecond)
	return dctx, func() { stop(); dcancel(); cancel() }
}

// opMcpLoad loads through LoadMcpWithContext (LoadMcp for context: false) and closes the
// source before answering. No waitFor is passed, valid whether or not the port's is variadic.
func opMcpLoad(a *adapter, x args, _ string) (any, error) {
	var src *toolnexus.McpSource
	var err error
	if x.Context != nil && !*x.Context {
		if x.CancelAfterMs != nil || x.DeadlineMs != nil {
			return nil, adapterErr("unsupported", "adapter: LoadMcp takes no context, so no cancelAfterMs/deadlineMs")
		}
		src, err = toolnexus.LoadMcp(x.mcpConfig())
	} else {
		ctx, cancel := x.context()
		defer cancel()
		src, err = toolnexus.LoadMcpWithContext(ctx, x.mcpConfig())
	}
	if src != nil {
		defer src.Close()
	}
	if err != nil || src == nil {
		return none, err
	}
	return loaded(src.Tools, src.Status), nil
}

// opMcpList runs the list-only ListMcpTools and reports original names; a nil schema stays
// null, since the runner compares it with the server's.
func opMcpList(a *adapter, x args, _ string) (any, error) {
	if x.Context != nil {
		return nil, adapterErr("unsupported", "adapter: mcp.list takes no context flag")
	}
	ctx, cancel := x.context()
	defer cancel()
	inv, err := toolnexus.ListMcpTools(ctx, x.mcpConfig())
	if err != nil || inv == nil {
		return none, err
	}
	tools := map[string][]map[string]any{}
	for server, list := range inv.Tools {
		tools[server] = []map[string]any{}
		for _, t := range list {
			tools[server] = append(tools[server], map[string]any{"name": t.Name, "description": t.Description, "inputSchema": map[string]any(t.InputSchema)})
		}
	}
	out := loaded(nil, inv.Status)
	out["tools"] = tools
	return out, nil
}

// loaded reports final tool names in order and every server's state, never null.
func loaded(tools []toolnexus.Tool, status map[string]toolnexus.McpStatus) map[string]any {
	names, states := []string{}, map[string]string{}
	for _, t := range tools {
		names = append(names, t.Name)
	}
	for k, v := range status {
		states[k] = string(v)
	}
	return map[string]any{"tools": names, "status": states}
}
