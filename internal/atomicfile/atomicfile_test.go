package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// A write that fails leaves the previous file whole and no temp file behind.
func TestFailedWriteKeepsThePreviousFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.md")
	if err := WriteBytes(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	err := Write(path, func(w io.Writer) error {
		_, _ = w.Write([]byte("half"))
		return errors.New("disk full")
	})
	if err == nil {
		t.Fatal("the failed write reported success")
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("the file holds %q after a failed write; want the previous %q", b, "old")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*.tmp-*")); len(left) > 0 {
		t.Errorf("temp files left: %v", left)
	}
}
