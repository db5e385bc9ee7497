package adapter

import "strings"

// Secret is the value every adapter has in TNX_SECRET: wave-1 scenarios expand it into MCP and
// http-tool headers and then scan everything the adapter emitted for it (SPEC.md §7).
const Secret = "s3cr3t-9f2c"

// ContractEnv is set in every adapter's environment, so `${ENV}` expansion and the env a stdio
// child inherits are judged without an op that edits a running process's environment (the JVM
// cannot). TNX_UNSET is never set.
var ContractEnv = []string{"TNX_PARENT=1", "TNX_SECRET=" + Secret}

// withoutTNX drops the runner's own TNX_* variables, so a developer's shell cannot change what
// a scenario sees.
func withoutTNX(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, "TNX_") {
			out = append(out, kv)
		}
	}
	return out
}
