package main

import (
	"encoding/json"

	toolnexus "github.com/muthuishere/toolnexus/golang"
)

// mcpArgs mirrors args.mcp (mcp.load, mcp.list).
type mcpArgs struct {
	McpConfig *mcpConfigArg `json:"mcpConfig"`
	Context   *bool         `json:"context"`
	timing
}

// opMcpLoad loads through LoadMcpWithContext (or LoadMcp for context:false),
// reports names and status, and closes the source before answering. The
// calls pass no waitFor, a form valid whether or not the port's is variadic.
func opMcpLoad(a *adapter, raw json.RawMessage) (any, error) {
	var args mcpArgs
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	cfg, err := args.McpConfig.value()
	if err != nil {
		return nil, err
	}
	var src *toolnexus.McpSource
	if args.Context != nil && !*args.Context {
		if args.timing.set() {
			return nil, unsupportedf("adapter: LoadMcp takes no context, so no cancelAfterMs/deadlineMs")
		}
		src, err = toolnexus.LoadMcp(cfg)
	} else {
		ctx, cancel := args.timing.context()
		defer cancel()
		src, err = toolnexus.LoadMcpWithContext(ctx, cfg)
	}
	if src != nil {
		defer src.Close()
	}
	if err != nil {
		return nil, asConfigError(err)
	}
	if src == nil {
		// SPEC.md §3: a nil result is reported as null, never as an empty success.
		return map[string]any{"tools": nil, "status": nil}, nil
	}
	return map[string]any{"tools": toolNames(src.Tools), "status": statusMap(src.Status)}, nil
}

// toolInfo is one listed tool in mcp.list's result.
type toolInfo struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	InputSchema map[string]any `json:"inputSchema"` // nil -> null
}

// opMcpList runs the list-only ListMcpTools and reports original names.
func opMcpList(a *adapter, raw json.RawMessage) (any, error) {
	var args mcpArgs
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	if args.Context != nil {
		return nil, unsupportedf("adapter: mcp.list takes no context flag")
	}
	cfg, err := args.McpConfig.value()
	if err != nil {
		return nil, err
	}
	ctx, cancel := args.timing.context()
	defer cancel()
	inv, err := toolnexus.ListMcpTools(ctx, cfg)
	if err != nil {
		return nil, asConfigError(err)
	}
	if inv == nil {
		// SPEC.md §3: a nil inventory is reported as null, never as an empty success.
		return map[string]any{"tools": nil, "status": nil}, nil
	}
	tools := map[string][]toolInfo{}
	for server, list := range inv.Tools {
		infos := make([]toolInfo, 0, len(list))
		for _, t := range list {
			// A nil schema stays null: the runner compares it with the server's.
			infos = append(infos, toolInfo{Name: t.Name, Description: t.Description, InputSchema: map[string]any(t.InputSchema)})
		}
		tools[server] = infos
	}
	return map[string]any{"tools": tools, "status": statusMap(inv.Status)}, nil
}
