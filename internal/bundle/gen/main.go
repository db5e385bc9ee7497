// Command gen writes nested.tar.gz (runners/go and reference/) at the module root; run it with
// `go generate .` from the root (make build does).
package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/muthuishere/toolnexus-conformance/internal/bundle"
)

func main() {
	var buf bytes.Buffer
	if err := bundle.NestedGz(".", &buf); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(bundle.NestedName, buf.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
