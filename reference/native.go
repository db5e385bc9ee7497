package toolnexus

import "context"

// emptyObjectSchema is the schema a tool declared without one exposes (C7.6): the
// upstream reference's empty schema, so every port shows the model the same thing.
// A fresh map each call, so no caller can edit another tool's schema.
func emptyObjectSchema() JSONSchema {
	return JSONSchema{"type": "object", "properties": map[string]any{}, "additionalProperties": false}
}

// NativeTool turns a Go function into a Tool with source "native".
//
// A returned error becomes the result {Output: err.Error(), IsError: true}, never a Go
// error, so the model sees the failure and the loop goes on (§6). A nil inputSchema
// becomes the empty object schema, and nil args reach fn as an empty map.
func NativeTool(name, description string, inputSchema JSONSchema, fn func(ctx context.Context, args map[string]any) (string, error)) Tool {
	return nativeTool(name, description, inputSchema, func(ctx context.Context, args map[string]any) (ToolResult, error) {
		out, err := fn(ctx, args)
		return ToolResult{Output: out}, err
	})
}

// NativeToolResult is NativeTool for a function that returns a whole ToolResult: the result
// passes through as returned, metadata included (C7.4).
func NativeToolResult(name, description string, inputSchema JSONSchema, fn func(ctx context.Context, args map[string]any) (ToolResult, error)) Tool {
	return nativeTool(name, description, inputSchema, fn)
}

// nativeTool is what both helpers build: the schema default, the native source, empty args
// for nil, and a returned error as an error result.
func nativeTool(name, description string, inputSchema JSONSchema, fn func(ctx context.Context, args map[string]any) (ToolResult, error)) Tool {
	if inputSchema == nil {
		inputSchema = emptyObjectSchema()
	}
	return Tool{
		Name:        name,
		Description: description,
		InputSchema: inputSchema,
		Source:      SourceNative,
		Execute: func(args map[string]any, tc *ToolContext) (ToolResult, error) {
			if args == nil {
				args = map[string]any{}
			}
			res, err := fn(callContext(tc), args)
			if err != nil {
				return ToolResult{Output: err.Error(), IsError: true}, nil
			}
			return res, nil
		},
	}
}

// callContext is the context a tool call runs under: the caller's, or Background.
func callContext(tc *ToolContext) context.Context {
	if tc != nil && tc.Ctx != nil {
		return tc.Ctx
	}
	return context.Background()
}
