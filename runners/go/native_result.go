//go:build native_result

package main

import (
	"context"

	toolnexus "github.com/muthuishere/toolnexus/golang"
)

// nativeResult declares a native tool whose function returns a whole ToolResult through the
// port's NativeToolResult. prepare builds this file (tag native_result) only for a port that
// has that helper.
func nativeResult(name, description string, schema map[string]any, call func(map[string]any, any) error) (toolnexus.Tool, error) {
	return toolnexus.NativeToolResult(name, description, schema,
		func(_ context.Context, input map[string]any) (toolnexus.ToolResult, error) {
			var out toolnexus.ToolResult
			err := call(input, &out)
			return out, err
		}), nil
}
