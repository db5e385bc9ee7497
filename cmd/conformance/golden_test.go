package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	conformance "github.com/muthuishere/toolnexus-conformance"
	"github.com/muthuishere/toolnexus-conformance/internal/bundle"
)

// The committed golden copies are what `conformance golden` records from this source: in a
// copy of the harness with every golden copy removed, a golden run writes each one back, byte
// for byte, and no other. A stale copy (the reference changed, a scenario was added or
// renamed) fails here instead of in a clean clone's first `conformance golden`.
func TestGoldenCopiesAreCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Go adapter and runs the golden scenarios on the reference")
	}
	repo := harnessRoot(t)
	root, cache := harnessCopy(t, repo), t.TempDir()
	committed := goldenFiles(t, repo)
	for _, rel := range goldenFiles(t, root) {
		if err := os.Remove(filepath.Join(root, rel)); err != nil {
			t.Fatal(err)
		}
	}
	var code int
	out := captured(t, &os.Stdout, func() {
		captured(t, &os.Stderr, func() { code = cmdGolden([]string{"--root", root, "--cache", cache, "--quiet"}) })
	})
	if code != 0 {
		t.Fatalf("conformance golden: exit %d\n%s", code, out)
	}
	recorded := goldenFiles(t, root)
	for _, rel := range committed {
		if !slices.Contains(recorded, rel) {
			t.Errorf("%s is committed, but no golden scenario records it: remove it, or tag its scenario for goldenTags", rel)
		}
	}
	for _, rel := range recorded {
		got, _ := os.ReadFile(filepath.Join(root, rel))
		want, err := os.ReadFile(filepath.Join(repo, rel))
		if err != nil {
			t.Errorf("%s is recorded but not committed: run `./bin/conformance golden` and commit it", rel)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: `./bin/conformance golden` rewrites it (%d lines committed, %d recorded; first difference at line %d)",
				rel, bytes.Count(want, []byte("\n")), bytes.Count(got, []byte("\n")), firstDifferentLine(want, got))
		}
	}
}

// harnessCopy is the harness as an installed CLI unpacks it (the embedded tree, with the
// nested modules taken from repo, as `go generate` would pack them), in a temp dir.
func harnessCopy(t *testing.T, repo string) string {
	t.Helper()
	root := t.TempDir()
	files := conformance.Files()
	err := fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == bundle.NestedName {
			return err
		}
		b, err := fs.ReadFile(files, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(p, "/prepare") {
			mode = 0o755
		}
		return os.WriteFile(dst, b, mode)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range bundle.NestedDirs {
		if err := os.CopyFS(filepath.Join(root, dir), os.DirFS(filepath.Join(repo, dir))); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// goldenFiles are root's fixtures/<area>/golden/*.json, relative to root.
func goldenFiles(t *testing.T, root string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(root, "fixtures", "*", "golden", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range paths {
		paths[i], _ = filepath.Rel(root, p)
	}
	return paths
}

func firstDifferentLine(a, b []byte) int {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := range min(len(la), len(lb)) {
		if !bytes.Equal(la[i], lb[i]) {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}
