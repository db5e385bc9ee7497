package toolnexus

// The three provider shapes of one tool list (§4, C5). Each entry's schema is the tool's
// own InputSchema value (C5.4); the entries are maps, so json.Marshal gives wire JSON.

// ToOpenAI renders tools as [{type:function, function:{name, description, parameters}}].
func ToOpenAI(tools []Tool) []any {
	out := make([]any, 0, len(tools))
	for _, t := range tools {
		out = append(out, map[string]any{
			"type": "function",
			"function": map[string]any{
				"name":        t.Name,
				"description": t.Description,
				"parameters":  schemaOrEmpty(t.InputSchema),
			},
		})
	}
	return out
}

// ToAnthropic renders tools as [{name, description, input_schema}].
func ToAnthropic(tools []Tool) []any {
	out := make([]any, 0, len(tools))
	for _, t := range tools {
		out = append(out, map[string]any{
			"name":         t.Name,
			"description":  t.Description,
			"input_schema": schemaOrEmpty(t.InputSchema),
		})
	}
	return out
}

// schemaOrEmpty keeps a host tool literal without a schema valid on the wire; every
// helper-built tool (MCP, NativeTool, HTTPTool) has one, so they pass through as is.
func schemaOrEmpty(s JSONSchema) JSONSchema {
	if s == nil {
		return JSONSchema{"type": "object", "properties": map[string]any{}}
	}
	return s
}

// ToGemini renders tools as [{functionDeclarations: [{name, description, parameters}]}]:
// always one element, even for zero tools (C5.3), so the shape never depends on the count.
func ToGemini(tools []Tool) []any {
	decls := make([]any, 0, len(tools))
	for _, t := range tools {
		decls = append(decls, map[string]any{
			"name":        t.Name,
			"description": t.Description,
			"parameters":  schemaOrEmpty(t.InputSchema),
		})
	}
	return []any{map[string]any{"functionDeclarations": decls}}
}
