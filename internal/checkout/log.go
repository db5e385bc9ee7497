package checkout

import (
	"bytes"
	"os"
	"path/filepath"
)

// logFor is a build log kept in memory and, when done, written beside the build as build.log,
// so the whole log is there to read after the tail shown in the report.
func (b *Builder) logFor(dir string) (*bytes.Buffer, func()) {
	var buf bytes.Buffer
	return &buf, func() { _ = os.WriteFile(filepath.Join(dir, "build.log"), buf.Bytes(), 0o644) }
}
