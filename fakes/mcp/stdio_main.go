package mcpfake

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
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
	fs.StringVar(&o.Catalogue, "catalogue", "", "the tools to list: "+strings.Join(Catalogues(), ", ")+` ("" is default)`)
	fs.Var((*msDuration)(&o.ListDelay), "list-delay", "answer every tools/list this late (a duration, or a number of ms)")
	fs.Var((*msDuration)(&o.InitDelay), "init-delay", "answer the handshake (initialize) this late (a duration, or a number of ms)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0 // -h asked for the usage, which Parse printed
		}
		return 2
	}
	if !ValidPhase(o.Stall) {
		fmt.Fprintf(os.Stderr, "fake-mcp-stdio: --stall %q: want initialize or tools/list\n", o.Stall)
		return 2
	}
	if !ValidCatalogue(o.Catalogue) {
		fmt.Fprintf(os.Stderr, "fake-mcp-stdio: --catalogue %q: want one of %s\n", o.Catalogue, strings.Join(Catalogues(), ", "))
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

// msDuration is a flag value that takes a Go duration ("400ms", "2s") or a bare number of
// milliseconds ("400").
type msDuration time.Duration

func (d *msDuration) String() string { return time.Duration(*d).String() }

func (d *msDuration) Set(s string) error {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		*d = msDuration(time.Duration(n) * time.Millisecond)
	} else if v, err := time.ParseDuration(s); err == nil {
		*d = msDuration(v)
	} else {
		return fmt.Errorf("want a duration (400ms) or a number of milliseconds")
	}
	if *d < 0 {
		return fmt.Errorf("negative delay")
	}
	return nil
}
