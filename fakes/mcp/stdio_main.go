package mcpfake

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// StdioMain is the fake-mcp-stdio command, for every binary that serves as the stdio fake
// (the CLI, and test binaries through their TestMain): it reads the flags the steps give it
// and serves until stdin closes or a signal comes. It returns the exit code.
func StdioMain(args []string) int {
	fs := flag.NewFlagSet("fake-mcp-stdio", flag.ContinueOnError)
	var o StdioOptions
	fs.StringVar(&o.PIDFile, "pid-file", "", "write this process's PID here so the suite can check it is gone")
	fs.DurationVar(&o.StartDelay, "start-delay", 0, "sleep this long before reading stdin (a slow start)")
	fs.DurationVar(&o.ExitDelay, "exit-delay", 0, "sleep this long after stdin closed, before exiting (a slow shutdown)")
	fs.StringVar(&o.Stall, "stall", "", `never answer this phase: "initialize" or "tools/list"`)
	fs.BoolVar(&o.Hang, "hang", false, "never answer anything and ignore stdin closing (only a signal ends it)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if !ValidPhase(o.Stall) {
		fmt.Fprintf(os.Stderr, "fake-mcp-stdio: --stall %q: want initialize or tools/list\n", o.Stall)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := ServeStdioWith(ctx, o); err != nil && ctx.Err() == nil {
		fmt.Fprintln(os.Stderr, "fake-mcp-stdio:", err)
		return 1
	}
	return 0
}
