package conformance

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/muthuishere/toolnexus-conformance/internal/bundle"
)

// TestNestedIsFresh: nested.tar.gz must hold today's runners/go and reference/, or an installed
// CLI would run an old adapter. `go generate .` (make build) rewrites it.
func TestNestedIsFresh(t *testing.T) {
	var want bytes.Buffer
	if err := bundle.Nested(".", &want); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(bundle.NestedName)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("%s is stale: runners/go or reference/ changed since it was made; run `go generate .` (or make build)", bundle.NestedName)
	}
}

// TestUnpack: the unpacked tree is a harness root (what ports.Root looks for) with the
// adapters, the nested modules and executable prepare scripts, and a second unpack reuses it.
func TestUnpack(t *testing.T) {
	base := t.TempDir()
	root, err := bundle.Unpack(Files(), base)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"SPEC.md", "fixtures/catalogue.txt", "features/parity/cross-port-parity.feature",
		"schema/protocol.schema.json", "expectations/python@0.21.0.txt", "runners/python/adapter.py", "runners/go/go.mod", "reference/go.mod",
		"runners/python/port.json", "runners/go/port.json"} { // the manifests travel too: they say which ports exist
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			t.Errorf("unpacked tree lacks %s: %v", p, err)
		}
	}
	st, err := os.Stat(filepath.Join(root, "runners", "go", "prepare"))
	if err != nil || st.Mode()&0o100 == 0 {
		t.Errorf("runners/go/prepare is not executable: %v %v", st, err)
	}
	if _, err := os.Stat(filepath.Join(root, "reference", "client_gap1_test.go")); err == nil {
		t.Errorf("tests were bundled")
	}
	again, err := bundle.Unpack(Files(), base)
	if err != nil || again != root {
		t.Errorf("second unpack: %s, %v; want %s", again, err, root)
	}
}
