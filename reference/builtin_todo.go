package toolnexus

import (
	"fmt"
	"strings"
)

func todowriteTool() Tool {
	return builtinTool("todowrite",
		"Replace the todo list with the given items and show it. The list is not kept between calls.",
		objectSchema(map[string]any{
			"todos": map[string]any{
				"type":        "array",
				"description": "The whole todo list",
				"items": map[string]any{
					"type": "object",
					"properties": map[string]any{
						"id":        prop("string", "A stable id for the item"),
						"text":      prop("string", "What is to be done"),
						"completed": prop("boolean", "Whether it is done"),
					},
					"required": []string{"id", "text", "completed"},
				},
			},
		}, "todos"),
		runTodowrite)
}

// runTodowrite keeps no state (§4A, v1): it checks the list and renders it, one line per
// item, "[x] text" when completed and "[ ] text" when not; an empty list is "(no todos)".
// The list itself rides along as metadata.todos.
func runTodowrite(args map[string]any, _ *ToolContext) ToolResult {
	todos, ok := anySlice(args["todos"])
	if !ok {
		return failf("todowrite: \"todos\" must be an array, got %s", argKind(args["todos"]))
	}
	lines := make([]string, 0, len(todos))
	for i, t := range todos {
		item, ok := t.(map[string]any)
		if !ok {
			return failf("todowrite: todos[%d] must be an object, got %s", i, argKind(t))
		}
		if _, err := strArg(item, "id", true); err != nil {
			return failf("todowrite: todos[%d]: %v", i, err)
		}
		text, err := strArg(item, "text", true)
		if err != nil {
			return failf("todowrite: todos[%d]: %v", i, err)
		}
		if _, present := item["completed"]; !present {
			return failf("todowrite: todos[%d]: %q is required", i, "completed")
		}
		done, err := boolArg(item, "completed")
		if err != nil {
			return failf("todowrite: todos[%d]: %v", i, err)
		}
		box := "[ ]"
		if done {
			box = "[x]"
		}
		lines = append(lines, fmt.Sprintf("%s %s", box, text))
	}
	out := strings.Join(lines, "\n")
	if out == "" {
		out = "(no todos)"
	}
	return ToolResult{Output: out, Metadata: map[string]any{"todos": todos}}
}
