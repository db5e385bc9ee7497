package skills

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// A skills tree is our own fixture (fixtures/skills/<name>.json), written into the attempt's
// directory when a scenario names it, so symlinks, odd names and bytes that are not UTF-8 never
// sit in git or the module zip:
//
//	{"files":    {"<path>": "<text>" | ["<line>", …]},   lines are joined with \n, plus a final \n
//	 "bytes":    {"<path>": "<base64>"},
//	 "symlinks": {"<path>": "<target, as written>"}}
//
// Paths are relative to the tree's root and may reach "../outside/…" (a sibling the root's
// symlinks point into), never further.
type tree struct {
	Comment  string                     `json:"$comment"`
	Files    map[string]json.RawMessage `json:"files"`
	Bytes    map[string]string          `json:"bytes"`
	Symlinks map[string]string          `json:"symlinks"`
}

// treeRef is how a step names trees: the skills tree "a", the skills trees "a" and "b".
var treeRef = regexp.MustCompile(`skills trees? "([^"]+)"(?: and "([^"]+)")?`)

func treePath(root, name string) string {
	return filepath.Join(root, "fixtures", "skills", name+".json")
}

// checkTreeStep is the area's check before the run: every tree a step names exists and is
// well formed.
func checkTreeStep(root, text string) error {
	for _, m := range treeRef.FindAllStringSubmatch(text, -1) {
		for _, name := range m[1:] {
			if name == "" {
				continue
			}
			if _, err := readTree(treePath(root, name)); err != nil {
				return err
			}
		}
	}
	return nil
}

// readTree reads and checks one tree file.
func readTree(path string) (*tree, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("skills tree %s: %w", rel(path), err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var t tree
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("skills tree %s: %w (fields: files, bytes, symlinks)", rel(path), err)
	}
	for p := range t.Files {
		if _, err := t.text(p); err != nil {
			return nil, fmt.Errorf("skills tree %s: %w", rel(path), err)
		}
	}
	for _, group := range []map[string]string{t.Bytes, t.Symlinks} {
		for p := range group {
			if err := confined(p); err != nil {
				return nil, fmt.Errorf("skills tree %s: %w", rel(path), err)
			}
		}
	}
	for p, v := range t.Bytes {
		if _, err := base64.StdEncoding.DecodeString(v); err != nil {
			return nil, fmt.Errorf("skills tree %s: bytes %q: not base64: %w", rel(path), p, err)
		}
	}
	return &t, nil
}

func rel(path string) string {
	return filepath.ToSlash(filepath.Join("fixtures", "skills", filepath.Base(path)))
}

// confined refuses a path that leaves the tree and its outside/ sibling.
func confined(p string) error {
	c := filepath.Clean(filepath.FromSlash(p))
	if filepath.IsAbs(c) || c == "." || strings.HasPrefix(c, "..") && !strings.HasPrefix(c, filepath.Join("..", "outside")+string(filepath.Separator)) {
		return fmt.Errorf("path %q leaves the tree (only ../outside/… may)", p)
	}
	return nil
}

// text is a file's content: a string as is, lines joined by \n with a final \n.
func (t *tree) text(p string) (string, error) {
	if err := confined(p); err != nil {
		return "", err
	}
	raw := t.Files[p]
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var lines []string
	if err := json.Unmarshal(raw, &lines); err != nil {
		return "", fmt.Errorf("file %q: want a string or a list of lines", p)
	}
	return strings.Join(lines, "\n") + "\n", nil
}

// write puts the tree under dir (its root), files first, then the symlinks.
func (t *tree) write(dir string) error {
	put := func(p string, b []byte) error {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		return os.WriteFile(full, b, 0o644)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for p := range t.Files {
		s, _ := t.text(p)
		if err := put(p, []byte(s)); err != nil {
			return err
		}
	}
	for p, v := range t.Bytes {
		b, _ := base64.StdEncoding.DecodeString(v)
		if err := put(p, b); err != nil {
			return err
		}
	}
	for p, target := range t.Symlinks {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.Symlink(filepath.FromSlash(target), full); err != nil {
			return err
		}
	}
	return nil
}
