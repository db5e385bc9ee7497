//go:build !native_result

package main

import toolnexus "github.com/muthuishere/toolnexus/golang"

// nativeResult answers unsupported: this port's native helper (NativeTool) returns a string,
// and a Tool built here would judge the adapter, not the library.
func nativeResult(string, string, map[string]any, func(map[string]any, any) error) (toolnexus.Tool, error) {
	return toolnexus.Tool{}, adapterErr("unsupported", "adapter: the Go port has no native helper returning a ToolResult (NativeToolResult); a function returning one cannot be declared")
}
