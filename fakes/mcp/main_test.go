package mcpfake

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"
)

// The stdio tests run this test binary again as the MCP server: with
// envChild set, TestMain serves stdio instead of running tests, as the
// harness's "conformance fake-mcp-stdio" command does.
const (
	envChild    = "MCPFAKE_TEST_STDIO_CHILD"
	envPIDFile  = "MCPFAKE_TEST_PIDFILE"
	envCancelMS = "MCPFAKE_TEST_CANCEL_AFTER"
	envStall    = "MCPFAKE_TEST_STALL"
	envHang     = "MCPFAKE_TEST_HANG"
	// envArgs (a JSON array) makes the child run StdioMain with these flags instead.
	envArgs = "MCPFAKE_TEST_ARGS"
)

func TestMain(m *testing.M) {
	if os.Getenv(envChild) == "" {
		os.Exit(m.Run())
	}
	if a := os.Getenv(envArgs); a != "" {
		var args []string
		if err := json.Unmarshal([]byte(a), &args); err != nil {
			fmt.Fprintln(os.Stderr, envArgs+":", err)
			os.Exit(2)
		}
		os.Exit(StdioMain(args))
	}
	ctx := context.Background()
	if d, err := time.ParseDuration(os.Getenv(envCancelMS)); err == nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	opts := StdioOptions{PIDFile: os.Getenv(envPIDFile), Stall: os.Getenv(envStall), Hang: os.Getenv(envHang) != ""}
	if err := ServeStdioWith(ctx, opts); err != nil {
		fmt.Fprintln(os.Stderr, "ServeStdio:", err)
		os.Exit(1)
	}
}
