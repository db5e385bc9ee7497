package common

import "fmt"

// ToolResult is one tool result in a transcript, either style, with the name of the call it
// answers (read from the assistant message that made the call).
type ToolResult struct {
	ID, Name, Content string
	IsError           any // anthropic's is_error as sent; nil when absent (openai has none)
}

// ToolResults reads every tool result of messages in order: openai "tool" messages,
// anthropic tool_result blocks (a block's content is a string or a list of text blocks).
func ToolResults(messages []any) []ToolResult {
	names := map[string]string{}
	var out []ToolResult
	for _, m := range messages {
		msg, _ := m.(map[string]any)
		for _, tc := range asList(msg["tool_calls"]) { // openai
			f, _ := tc["function"].(map[string]any)
			names[str(tc["id"])] = str(f["name"])
		}
		if msg["role"] == "tool" {
			id := str(msg["tool_call_id"])
			out = append(out, ToolResult{ID: id, Name: names[id], Content: ContentText(msg["content"])})
		}
		for _, b := range asList(msg["content"]) { // anthropic
			switch b["type"] {
			case "tool_use":
				names[str(b["id"])] = str(b["name"])
			case "tool_result":
				id := str(b["tool_use_id"])
				out = append(out, ToolResult{ID: id, Name: names[id], Content: ContentText(b["content"]), IsError: b["is_error"]})
			}
		}
	}
	return out
}

func asList(v any) []map[string]any {
	list, _ := v.([]any)
	var out []map[string]any
	for _, x := range list {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func str(v any) string {
	if v == nil {
		return ""
	}
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}
