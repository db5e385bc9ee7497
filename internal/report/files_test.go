package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFiles(t *testing.T) {
	dir := t.TempDir()
	paths, err := WriteFiles(dir, testCatalogue, richRun(), false)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range paths {
		names = append(names, filepath.Base(p))
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Errorf("%s: empty or missing (%v)", p, err)
		}
	}
	want := "report.md results.json junit-go.xml junit-python.xml junit-js.xml report.html"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("wrote %s, want %s", got, want)
	}

	summary := filepath.Join(dir, "summary.md")
	if err := os.WriteFile(summary, []byte("before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := AppendFile(summary, filepath.Join(dir, "report.md")); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(summary)
	if !strings.HasPrefix(string(b), "before\n## toolnexus conformance") {
		t.Errorf("step summary: %.80q", b)
	}
}

func TestWriteFilesMissingDir(t *testing.T) {
	paths, err := WriteFiles(filepath.Join(t.TempDir(), "nope"), testCatalogue, syntheticRun(), false)
	if err == nil || len(paths) != 0 {
		t.Errorf("paths %v err %v", paths, err)
	}
}
