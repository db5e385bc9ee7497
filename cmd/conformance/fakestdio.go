package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	mcpfake "toolnexus-conformance/fakes/mcp"
)

// cmdFakeStdio serves the fake MCP server on stdin/stdout; ports spawn it as a stdio server.
func cmdFakeStdio(args []string) int {
	fs := flag.NewFlagSet("fake-mcp-stdio", flag.ContinueOnError)
	pid := fs.String("pid-file", "", "write this process's PID here so the suite can check it is gone")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := mcpfake.ServeStdio(ctx, *pid); err != nil && ctx.Err() == nil {
		fmt.Fprintln(os.Stderr, "fake-mcp-stdio:", err)
		return 1
	}
	return 0
}
