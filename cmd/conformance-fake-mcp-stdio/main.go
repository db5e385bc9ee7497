// Command conformance-fake-mcp-stdio is the harness's fake stdio MCP server on its own: what
// `conformance fake-mcp-stdio` serves, without the rest of the harness linked in. Ports spawn
// a stdio fake dozens of times per run; this binary is up in a few ms of CPU where the whole
// harness needs about 30 (godog runs `go env` in a package init, the JSON Schema library
// compiles its meta-schemas in another). conformance uses it when it lies beside conformance
// and was built from the same source (make build, go install of both).
package main

import (
	"os"

	mcpfake "github.com/muthuishere/toolnexus-conformance/fakes/mcp"
)

func main() { os.Exit(mcpfake.StdioMain(os.Args[1:])) }
