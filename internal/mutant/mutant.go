// Package mutant reads mutants of the reference (small find/replace patches, each breaking one
// ADR behaviour the way a real port could) and applies them to a copy of the reference.
package mutant

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Mutant is one deliberate break of the reference.
type Mutant struct {
	Name   string
	Gap    string
	Breaks string
	// Benign marks a variant that keeps the ADR (its "keeps:" line is in Breaks): it must pass
	// every scenario, proving the suite raises no false red on a correct but different port.
	Benign bool
	Hunks  []Hunk
	Path   string
}

// Hunk replaces one exact, unique run of text in one file of the reference.
type Hunk struct {
	File, Find, Replace string
}

// Load reads every *.mutant file in dir, sorted by name.
func Load(dir string) ([]Mutant, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.mutant"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var out []Mutant
	for _, p := range paths {
		m, err := parse(p)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// parse reads the format:
//
//	gap: G1
//	breaks: one sentence (or keeps: one sentence, for a benign variant that must pass)
//	file: client_body.go
//	<<<< find
//	…exact lines…
//	==== replace
//	…new lines…
//	>>>>
func parse(path string) (Mutant, error) {
	f, err := os.Open(path)
	if err != nil {
		return Mutant{}, err
	}
	defer f.Close()
	m := Mutant{Name: strings.TrimSuffix(filepath.Base(path), ".mutant"), Path: path}
	var file, section string
	var find, repl []string
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case section == "" && strings.HasPrefix(line, "gap:"):
			m.Gap = strings.TrimSpace(strings.TrimPrefix(line, "gap:"))
		case section == "" && strings.HasPrefix(line, "breaks:"):
			m.Breaks = strings.TrimSpace(strings.TrimPrefix(line, "breaks:"))
		case section == "" && strings.HasPrefix(line, "keeps:"):
			m.Breaks, m.Benign = strings.TrimSpace(strings.TrimPrefix(line, "keeps:")), true
		case section == "" && strings.HasPrefix(line, "file:"):
			file = strings.TrimSpace(strings.TrimPrefix(line, "file:"))
		case section == "" && line == "<<<< find":
			if file == "" {
				return m, fmt.Errorf("%s:%d: a hunk before any 'file:' line", path, n)
			}
			section, find, repl = "find", nil, nil
		case section == "find" && line == "==== replace":
			section = "replace"
		case section == "replace" && line == ">>>>":
			m.Hunks = append(m.Hunks, Hunk{File: file, Find: strings.Join(find, "\n"), Replace: strings.Join(repl, "\n")})
			section = ""
		case section == "find":
			find = append(find, line)
		case section == "replace":
			repl = append(repl, line)
		case strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#"):
		default:
			return m, fmt.Errorf("%s:%d: unexpected line %q", path, n, line)
		}
	}
	if section != "" {
		return m, fmt.Errorf("%s: unterminated hunk", path)
	}
	if m.Gap == "" || m.Breaks == "" || len(m.Hunks) == 0 {
		return m, fmt.Errorf("%s: a mutant needs gap:, breaks: (or keeps:) and at least one hunk", path)
	}
	return m, nil
}

// Apply copies the reference at src to dst and applies the mutant's hunks. A hunk whose text
// is missing or ambiguous is an error: a stale mutant must be fixed, never silently skipped.
func (m Mutant) Apply(src, dst string) error {
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	if err := copyTree(src, dst); err != nil {
		return err
	}
	for _, h := range m.Hunks {
		p := filepath.Join(dst, h.File)
		b, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("mutant %s: %w", m.Name, err)
		}
		if n := strings.Count(string(b), h.Find); n != 1 {
			return fmt.Errorf("mutant %s is stale: its text occurs %d times in %s (want exactly once)", m.Name, n, h.File)
		}
		out := strings.Replace(string(b), h.Find, h.Replace, 1)
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// copyTree copies the reference's non-test files (tests are not needed to build a mutant).
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}
