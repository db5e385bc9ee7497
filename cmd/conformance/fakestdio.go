package main

import (
	"debug/buildinfo"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"

	mcpfake "github.com/muthuishere/toolnexus-conformance/fakes/mcp"
)

// cmdFakeStdio serves the fake MCP server on stdin/stdout; ports spawn it as a stdio server.
func cmdFakeStdio(args []string) int { return mcpfake.StdioMain(args) }

// fakeStdioName is the stdio fake built on its own (cmd/conformance-fake-mcp-stdio).
const fakeStdioName = "conformance-fake-mcp-stdio"

// stdioArgv is how scenarios start the stdio fake: the small binary beside this one when it
// was built from the same source, which starts far faster; else this binary's own
// fake-mcp-stdio command. Both serve the same fake.
func stdioArgv(exe string) []string {
	if small := filepath.Join(filepath.Dir(exe), fakeStdioName); sameBuild(exe, small) {
		return []string{small}
	}
	return []string{exe, "fake-mcp-stdio"}
}

// sameBuild reports whether the binary at small was built from the source this one was: the
// same main module (version and sum), Go version and build settings (VCS revision, flags). A
// build from a modified tree cannot be told apart by those, so then it must also be no older
// than this binary (make build builds it second): a stale one beside a rebuilt harness is not
// used.
func sameBuild(exe, small string) bool {
	mine, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	theirs, err := buildinfo.ReadFile(small)
	if err != nil || theirs.Main.Path != mine.Main.Path || theirs.Main.Version != mine.Main.Version ||
		theirs.Main.Sum != mine.Main.Sum || theirs.GoVersion != mine.GoVersion ||
		!slices.Equal(theirs.Settings, mine.Settings) {
		return false
	}
	setting := func(key string) string {
		for _, s := range mine.Settings {
			if s.Key == key {
				return s.Value
			}
		}
		return ""
	}
	if setting("vcs.modified") == "false" || (setting("vcs.revision") == "" && mine.Main.Version != "" && mine.Main.Version != "(devel)") {
		return true // a clean commit, or a module version from the proxy (go install …@v)
	}
	si, err1 := os.Stat(small)
	ei, err2 := os.Stat(exe)
	return err1 == nil && err2 == nil && !si.ModTime().Before(ei.ModTime())
}
