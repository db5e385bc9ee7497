// Package conformance carries the harness's own files (features, fixtures, schemas, the areas'
// protocol fragments, expectations, adapters and the reference library) inside the binary, so
// `go install …/cmd/conformance@<version>` gives a CLI that works outside a clone: it unpacks them into the cache (internal/bundle).
package conformance

import (
	"embed"
	"io/fs"
)

// The Go adapter and the reference are modules of their own, which go:embed cannot reach (and
// a module zip leaves out): they travel as nested.tar.gz, made by `go generate` (make build).
//
//go:generate go run ./internal/bundle/gen
//go:embed runners features fixtures schema expectations SPEC.md nested.tar.gz steps/*/protocol.json
var files embed.FS

// Files is the embedded harness tree; nested.tar.gz holds runners/go and reference/.
func Files() fs.FS { return files }
