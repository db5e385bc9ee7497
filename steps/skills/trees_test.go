package skills

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeTreeFile(t *testing.T, root, name, text string) {
	t.Helper()
	p := treePath(root, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A tree a step names is checked before the run: missing, unknown fields, a path that leaves
// the tree, bytes that are not base64; each error names the fixture.
func TestTreesAreCheckedBeforeTheRun(t *testing.T) {
	root := t.TempDir()
	writeTreeFile(t, root, "good", `{"files": {"a/SKILL.md": ["---", "name: a", "---"]}, "symlinks": {"l": "../outside/x"}}`)
	writeTreeFile(t, root, "unknown", `{"file": {}}`)
	writeTreeFile(t, root, "escapes", `{"files": {"../../etc/x": "no"}}`)
	writeTreeFile(t, root, "notbase64", `{"bytes": {"a": "%%%"}}`)
	if err := checkTreeStep(root, `the skills tree "good"`); err != nil {
		t.Errorf("good tree: %v", err)
	}
	for text, want := range map[string]string{
		`the skills tree "missing"`:             "fixtures/skills/missing.json",
		`the skills trees "good" and "unknown"`: `unknown field "file"`,
		`the skills tree "escapes"`:             `path "../../etc/x" leaves the tree`,
		`the skills tree "notbase64"`:           "not base64",
	} {
		if err := checkTreeStep(root, text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want an error containing %q", text, err, want)
		}
	}
}

// Every tree the features use parses, and writing one makes its files, bytes and symlinks.
func TestShippedTreesWrite(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "fixtures", "skills", "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no trees: %v", err)
	}
	for _, p := range paths {
		tr, err := readTree(p)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(t.TempDir(), "skills")
		if err := tr.write(dir); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
	tr, _ := readTree(filepath.Join("..", "..", "fixtures", "skills", "mixed.json"))
	dir := filepath.Join(t.TempDir(), "mixed", "skills")
	if err := tr.write(dir); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "linked", "SKILL.md")); err != nil || !strings.Contains(string(b), "via-dir-link") {
		t.Errorf("the symlinked directory does not lead to its skill: %v", err)
	}
	if target, err := os.Readlink(filepath.Join(dir, "a", "loop")); err != nil || target != ".." {
		t.Errorf("the cycle link: %q %v", target, err)
	}
}
