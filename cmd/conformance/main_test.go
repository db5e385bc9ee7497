package main

import (
	"os"
	"testing"
)

// TestMain lets this test binary serve as the fake stdio MCP server that a whole-suite run's
// scenarios spawn (stdioArgv: this executable's fake-mcp-stdio command); without it each spawn
// would run every test again.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "fake-mcp-stdio" {
		os.Exit(cmdFakeStdio(os.Args[2:]))
	}
	os.Exit(m.Run())
}
