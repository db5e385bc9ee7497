package bundle

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// The archive is the same bytes every time, and a build output left in a bundled folder (a
// `go build` there) stays out of it: a clean clone's make build leaves the committed archive
// as it was.
func TestNestedIsReproducibleAndHoldsNoBuildOutput(t *testing.T) {
	root := t.TempDir()
	for name, body := range map[string]string{
		"runners/go/main.go":      "package main\n",
		"runners/go/prepare":      "#!/bin/sh\n",
		"runners/go/main_test.go": "package main\n",
		"runners/go/go":           "\x7fELF\x02\x01\x01 a compiled adapter",
		"reference/client.go":     "package toolnexus\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var a, b bytes.Buffer
	if err := NestedGz(root, &a); err != nil {
		t.Fatal(err)
	}
	if err := NestedGz(root, &b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two archives of one tree differ")
	}
	zr, err := gzip.NewReader(&a)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
	}
	want := []string{"reference/client.go", "runners/go/main.go", "runners/go/prepare"}
	if len(names) != len(want) || names[0] != want[0] || names[1] != want[1] || names[2] != want[2] {
		t.Errorf("archived %v, want %v (no test, no build output)", names, want)
	}
}
