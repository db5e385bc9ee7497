// Command conformance runs the toolnexus ADR 0001 suite against each port's adapter.
package main

import (
	"fmt"
	"os"
	"runtime/debug"
)

const usage = `conformance: one executable contract for toolnexus ADR 0001, run against every port.

usage:
  conformance run    [--ports reference,go,python@0.15.0,...] [--toolnexus DIR] [--baseline P@R]
                     [--tags EXPR] [--format text|json] [--verbose] [flags]
                     (--verbose: known failures' evidence too, not one line each)
  conformance merge  [--report-dir D] [--verbose] results.json...   one report from per-implementation runs
  conformance history [--port P] results.json   from which release each ID passes
  conformance list   [--uncovered] [--format text|json]   scenarios: id, level, source, catalogue IDs
  conformance info   [--ports ...]      each port: present or not (and why), library and runtime
  conformance smoke  [--ports ...]      each adapter against its own hello: every op and slot it
                                        declares, the three slot answers, error relay, shutdown
  conformance ci-matrix [--tree DIR]    the CI job matrix (one entry per implementation) from runners/*/port.json
  conformance golden                    record fixtures/<area>/golden from the reference (only)
  conformance diff   <golden> <port>    a port against one golden copy of the reference (bodies,
                                        inventory, returned values; x4-returned: every contract scenario)
  conformance bench  [--runs N]         wall time per run and per scenario (the reference)
  conformance mutants [--only a,b]      every mutant of the reference must fail some scenario
  conformance version                   the harness version (the release, + the commit built)
  conformance fake-mcp-stdio --pid-file F [--start-delay D] [--stall PHASE] [--hang]
                             [--catalogue NAME] [--list-delay D] [--init-delay D]
                                            (used by the suite) the fake stdio MCP server

Run 'conformance <command> -h' for a command's flags.
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	if os.Getenv("GOGC") == "" {
		// A run is short and allocates briskly (godog compiles every step pattern per scenario,
		// bodies are decoded and diffed) while its heap stays small: collect less often.
		debug.SetGCPercent(400)
	}
	var code int
	switch os.Args[1] {
	case "run":
		code = cmdRun(os.Args[2:], false)
	case "golden":
		code = cmdGolden(os.Args[2:])
	case "bench":
		code = cmdBench(os.Args[2:])
	case "mutants":
		code = cmdMutants(os.Args[2:])
	case "diff":
		code = cmdDiff(os.Args[2:])
	case "merge":
		code = cmdMerge(os.Args[2:])
	case "history":
		code = cmdHistory(os.Args[2:])
	case "list":
		code = cmdList(os.Args[2:])
	case "info":
		code = cmdInfo(os.Args[2:])
	case "smoke":
		code = cmdSmoke(os.Args[2:])
	case "ci-matrix":
		code = cmdCIMatrix(os.Args[2:])
	case "version", "--version":
		code = cmdVersion(os.Args[2:])
	case "fake-mcp-stdio":
		code = cmdFakeStdio(os.Args[2:])
	case "-h", "--help", "help":
		fmt.Print(usage)
	default:
		fmt.Fprintf(os.Stderr, "conformance: unknown command %q\n\n%s", os.Args[1], usage)
		code = 2
	}
	os.Exit(code)
}
