package toolnexus

import "testing"

func TestTodowriteTool(t *testing.T) {
	cases := []struct {
		name    string
		todos   any
		isError bool
		output  string
	}{
		{"renders in order", []any{
			map[string]any{"id": "1", "text": "write tests", "completed": true},
			map[string]any{"id": "2", "text": "ship", "completed": false},
		}, false, "[x] write tests\n[ ] ship"},
		{"empty", []any{}, false, "(no todos)"},
		{"a typed Go slice", []map[string]any{{"id": "1", "text": "go", "completed": false}}, false, "[ ] go"},
		{"not an array", "todo", true, `todowrite: "todos" must be an array, got a string`},
		{"an item that is no object", []any{1.0}, true, `todowrite: todos[0] must be an object, got a number`},
		{"a missing id", []any{map[string]any{"text": "t", "completed": true}}, true, `todowrite: todos[0]: "id" is required`},
		{"a missing completed", []any{map[string]any{"id": "1", "text": "t"}}, true, `todowrite: todos[0]: "completed" is required`},
		{"a completed that is no boolean", []any{map[string]any{"id": "1", "text": "t", "completed": "yes"}}, true, `todowrite: todos[0]: "completed" must be a boolean, got a string`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := runBuiltin(t, "todowrite", map[string]any{"todos": c.todos}, nil)
			wantBuiltinResult(t, res, c.isError, c.output)
			if !c.isError && res.Metadata["todos"] == nil {
				t.Fatalf("metadata = %v", res.Metadata)
			}
		})
	}
}
