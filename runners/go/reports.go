package main

import toolnexus "github.com/muthuishere/toolnexus/golang"

// What the library returned, in the protocol's shape, for the areas that report it: a run
// (llm, memory) and a load (tools, mcp).

// runReport is a run's result; no result stays null.
func runReport(res *toolnexus.RunResult) map[string]any {
	if res == nil {
		return map[string]any{"text": nil, "turns": nil, "toolCalls": nil}
	}
	names, calls := []string{}, []any{}
	for _, tc := range res.ToolCalls {
		names = append(names, tc.Name)
		calls = append(calls, tc) // its JSON tags are the protocol's names
	}
	var limit any // Go has no absent string: "" is no limit
	if res.Limit != "" {
		limit = res.Limit
	}
	report := map[string]any{"text": res.Text, "turns": res.Turns, "toolCalls": names, "calls": calls,
		"status": res.Status, "limit": limit, "toolCallCount": res.ToolCallCount, "messages": res.Messages,
		"usage": map[string]any{"promptTokens": res.Usage.PromptTokens, "completionTokens": res.Usage.CompletionTokens, "totalTokens": res.Usage.TotalTokens}}
	if res.Pending != nil { // present iff the run halted on a suspension
		report["pending"] = res.Pending
	}
	return report
}

// none is a load that returned neither a result nor an error: null, never an empty success.
var none = map[string]any{"tools": nil, "status": nil}

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
