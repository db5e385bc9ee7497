package mutant

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestApplyAndStale(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "ref", "a.go"), "package a\n\nfunc f() int {\n\treturn 1\n}\n")
	write(t, filepath.Join(dir, "ref", "a_test.go"), "package a\n")
	write(t, filepath.Join(dir, "m", "one.mutant"), "gap: G1\nbreaks: returns 2\nfile: a.go\n<<<< find\n\treturn 1\n==== replace\n\treturn 2\n>>>>\n")
	write(t, filepath.Join(dir, "m", "two.mutant"), "gap: G1\nbreaks: nothing matches\nfile: a.go\n<<<< find\n\treturn 9\n==== replace\n\treturn 2\n>>>>\n")
	ms, err := Load(filepath.Join(dir, "m"))
	if err != nil || len(ms) != 2 {
		t.Fatalf("load: %v %d", err, len(ms))
	}
	out := filepath.Join(dir, "out")
	if err := ms[0].Apply(filepath.Join(dir, "ref"), out); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(out, "a.go"))
	if !strings.Contains(string(b), "return 2") {
		t.Fatalf("not applied: %s", b)
	}
	if _, err := os.Stat(filepath.Join(out, "a_test.go")); err == nil {
		t.Error("test files should not be copied")
	}
	if err := ms[1].Apply(filepath.Join(dir, "ref"), out); err == nil || !strings.Contains(err.Error(), "stale") {
		t.Fatalf("stale mutant accepted: %v", err)
	}
}

func TestParseErrors(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "bad.mutant"), "gap: G1\nfile: a.go\n<<<< find\nx\n")
	if _, err := Load(dir); err == nil {
		t.Fatal("an unterminated mutant was accepted")
	}
}

func TestKeepsMarksACorrectVariant(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a-break.mutant"), "gap: G3\nbreaks: drops the cancel\nfile: a.go\n<<<< find\nx\n==== replace\ny\n>>>>\n")
	write(t, filepath.Join(dir, "ok-slow.mutant"), "gap: G3\nkeeps: slow but correct\nfile: a.go\n<<<< find\nx\n==== replace\ny\n>>>>\n")
	ms, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || ms[0].Benign || !ms[1].Benign || ms[1].Breaks != "slow but correct" {
		t.Fatalf("breaks/keeps read wrong: %+v", ms)
	}
	write(t, filepath.Join(dir, "neither.mutant"), "gap: G3\nfile: a.go\n<<<< find\nx\n==== replace\ny\n>>>>\n")
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "keeps:") {
		t.Fatalf("a mutant with neither breaks: nor keeps: must be refused: %v", err)
	}
}
