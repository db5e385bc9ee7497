package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	mcpfake "github.com/muthuishere/toolnexus-conformance/fakes/mcp"
)

// cmdFakeStdio serves the fake MCP server on stdin/stdout; ports spawn it as a stdio server.
func cmdFakeStdio(args []string) int {
	fs := flag.NewFlagSet("fake-mcp-stdio", flag.ContinueOnError)
	var o mcpfake.StdioOptions
	fs.StringVar(&o.PIDFile, "pid-file", "", "write this process's PID here so the suite can check it is gone")
	fs.DurationVar(&o.StartDelay, "start-delay", 0, "sleep this long before reading stdin (a slow start)")
	fs.StringVar(&o.Stall, "stall", "", `never answer this phase: "initialize" or "tools/list"`)
	fs.BoolVar(&o.Hang, "hang", false, "never answer anything and ignore stdin closing (only a signal ends it)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if !mcpfake.ValidPhase(o.Stall) {
		fmt.Fprintf(os.Stderr, "fake-mcp-stdio: --stall %q: want initialize or tools/list\n", o.Stall)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := mcpfake.ServeStdioWith(ctx, o); err != nil && ctx.Err() == nil {
		fmt.Fprintln(os.Stderr, "fake-mcp-stdio:", err)
		return 1
	}
	return 0
}
