package suspension

import (
	"fmt"

	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

// toolResult is one tool result in a transcript, either style, with the name of the call it
// answers (read from the assistant message that made the call).
type toolResult struct {
	id, name, content string
	isError           any // anthropic's is_error as sent; nil when absent (openai has none)
}

// toolResults reads every tool result of messages in order: openai "tool" messages,
// anthropic tool_result blocks.
func toolResults(messages []any) []toolResult {
	names := map[string]string{}
	var out []toolResult
	for _, m := range messages {
		msg, _ := m.(map[string]any)
		for _, tc := range asList(msg["tool_calls"]) { // openai
			f, _ := tc["function"].(map[string]any)
			names[str(tc["id"])] = str(f["name"])
		}
		if msg["role"] == "tool" {
			id := str(msg["tool_call_id"])
			out = append(out, toolResult{id: id, name: names[id], content: common.ContentText(msg["content"])})
		}
		for _, b := range asList(msg["content"]) { // anthropic
			switch b["type"] {
			case "tool_use":
				names[str(b["id"])] = str(b["name"])
			case "tool_result":
				id := str(b["tool_use_id"])
				out = append(out, toolResult{id: id, name: names[id], content: common.ContentText(b["content"]), isError: b["is_error"]})
			}
		}
	}
	return out
}

// tail is what follows the last assistant message: the tool results a run appended.
func tail(messages []any) []any {
	for i := len(messages) - 1; i >= 0; i-- {
		if m, _ := messages[i].(map[string]any); m["role"] == "assistant" {
			return messages[i+1:]
		}
	}
	return nil
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
