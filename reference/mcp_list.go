package toolnexus

import "context"

// ToolInfo is one listed tool definition under its original, unprefixed name.
type ToolInfo struct {
	// Name is the server's own tool name, the key a tools filter uses.
	Name string `json:"name"`
	// Description is the server's description of the tool.
	Description string `json:"description"`
	// InputSchema is the listed schema, made an object schema with properties.
	InputSchema JSONSchema `json:"inputSchema"`
}

// McpInventory is the result of a list-only pass: every connected server's full tool list
// (unfiltered by ServerConfig.Tools) and each server's status.
type McpInventory struct {
	// Tools maps each connected server to its listed tools, in listing order.
	Tools map[string][]ToolInfo `json:"tools"`
	// Status is connected, disabled or failed for every configured server.
	Status map[string]McpStatus `json:"status"`
}

// ListMcpTools connects to every enabled server, lists its tools and disconnects before
// returning, with the same ctx, timeout and failure-isolation rules as LoadMcpWithContext.
// It exists to author and check tools filters, so it neither applies nor warns about them.
func ListMcpTools(ctx context.Context, input any) (*McpInventory, error) {
	entries, err := parseMcpEntries(input)
	if err != nil {
		return nil, err
	}
	opened, status, err := openServers(ctx, entries)
	if err != nil {
		return nil, err
	}
	closeMcpServers(liveServersOf(opened), false)
	inv := &McpInventory{Tools: map[string][]ToolInfo{}, Status: status}
	for _, o := range opened {
		infos := make([]ToolInfo, 0, len(o.defs))
		for _, def := range o.defs {
			infos = append(infos, ToolInfo{Name: def.Name, Description: def.Description, InputSchema: mcpObjectSchema(def.InputSchema)})
		}
		inv.Tools[o.name] = infos
	}
	return inv, nil
}
