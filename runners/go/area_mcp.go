package main

import (
	toolnexus "github.com/muthuishere/toolnexus/golang"
)

// The mcp area: load and list-only, and the MCP config a toolkit build takes.

var mcpArea = registerArea(area{name: "mcp", toolkitOptions: optionOf(mcpOptions),
	ops: map[string]opFunc{"mcp.load": op(mcpLoad), "mcp.list": op(mcpList)}})

// mcpArgs are the ops' and toolkit.create's config, with the caller's timing; context is
// mcp.load's choice of entry point.
type mcpArgs struct {
	timing
	McpConfig *struct {
		File   *string
		Inline map[string]any
	}
	Context *bool
}

// config is what the port's McpConfig receives: the path for {file}, the object for
// {inline}, an untyped nil when absent (so the port sees no config, not a typed nil).
func (x mcpArgs) config() any {
	if c := x.McpConfig; c != nil && c.File != nil {
		return *c.File
	} else if c != nil {
		return c.Inline
	}
	return nil
}

func mcpOptions(_ *kit, _ string, x mcpArgs, opts *toolnexus.Options) error {
	opts.McpConfig = x.config()
	return nil
}

// mcpLoad loads through LoadMcpWithContext (LoadMcp for context: false) and closes the
// source before answering. No waitFor is passed, valid whether or not the port's is variadic.
func mcpLoad(_ *kit, x mcpArgs, _ request) (any, error) {
	var src *toolnexus.McpSource
	var err error
	if x.Context != nil && !*x.Context {
		if x.CancelAfterMs != nil || x.DeadlineMs != nil {
			return nil, adapterErr("unsupported", "adapter: LoadMcp takes no context, so no cancelAfterMs/deadlineMs")
		}
		src, err = toolnexus.LoadMcp(x.config())
	} else {
		ctx, cancel := x.context()
		defer cancel()
		src, err = toolnexus.LoadMcpWithContext(ctx, x.config())
	}
	if src != nil {
		defer src.Close()
	}
	if err != nil || src == nil {
		return none, err
	}
	return loaded(src.Tools, src.Status), nil
}

// mcpList runs the list-only ListMcpTools and reports original names; a nil schema stays
// null, since the runner compares it with the server's.
func mcpList(_ *kit, x mcpArgs, _ request) (any, error) {
	if x.Context != nil {
		return nil, adapterErr("unsupported", "adapter: mcp.list takes no context flag")
	}
	ctx, cancel := x.context()
	defer cancel()
	inv, err := toolnexus.ListMcpTools(ctx, x.config())
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
