package suite

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
)

// checkFixtures reads every JSON file under fixtures/ (the areas' fixtures and the reference's
// golden copies) before anything runs: one that does not parse is bad input, named with
// file:line:column, never a port's verdict and never a retry.
func checkFixtures(root string) error {
	dir := filepath.Join(root, "fixtures")
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real // a scratch root may link fixtures/ in
	}
	var errs []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if line, col, err := jsonError(b); err != nil {
			errs = append(errs, fmt.Sprintf("%s:%d:%d: not valid JSON: %v", filepath.ToSlash(filepath.Join("fixtures", rel)), line, col, err))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("fixtures: %w", err)
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "\n"))
	}
	return nil
}

// jsonError says where and why a document does not parse as one JSON value; nil when it does.
func jsonError(b []byte) (line, col int, err error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	var v any
	var at int64 // the byte the error is at
	if err = dec.Decode(&v); err == nil {
		at = dec.InputOffset()
		for at < int64(len(b)) && strings.ContainsRune(" \t\r\n", rune(b[at])) {
			at++
		}
		if at == int64(len(b)) {
			return 0, 0, nil
		}
		err = errors.New("more than one JSON value")
	} else {
		at = dec.InputOffset()
		var se *json.SyntaxError
		if errors.As(err, &se) {
			at = se.Offset - 1 // Offset counts the byte that was wrong
		}
	}
	line, col = 1, 1
	for _, c := range b[:max(0, min(int(at), len(b)))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col, err
}

// checkedSteps runs each area's CheckStep on every step of the selected scenarios: a fixture a
// step names that is missing or malformed is bad input at the scenario's file:line.
func checkedSteps(root string, lib kernel.Library, selected []Scenario) error {
	var errs []string
	seen := map[string]bool{}
	for _, s := range selected {
		for _, text := range s.Steps {
			for _, a := range lib {
				if a.CheckStep == nil {
					continue
				}
				if err := a.CheckStep(root, text); err != nil {
					if msg := fmt.Sprintf("%s:%d: %v", s.File, s.Line, err); !seen[msg] {
						seen[msg] = true
						errs = append(errs, msg)
					}
				}
			}
		}
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "\n"))
	}
	return nil
}

// goldenRef is how a step names a golden copy: the wire bodies, the inventory, the returned
// values or the schema adapters "match the golden copy "<name>"".
var goldenRef = regexp.MustCompile(`golden copy "([^"]+)"`)

// missingGolden names, as file:line, each selected scenario that compares with a golden copy
// its area does not have (fixtures/<area>/golden/<name>.json): bad input, before anything runs.
func missingGolden(root string, selected []Scenario) error {
	var errs []string
	seen := map[string]bool{}
	for _, s := range selected {
		area := filepath.Base(filepath.Dir(s.File))
		for _, text := range s.Steps {
			for _, m := range goldenRef.FindAllStringSubmatch(text, -1) {
				rel := filepath.ToSlash(filepath.Join("fixtures", area, "golden", m[1]+".json"))
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); err != nil && !seen[rel] {
					seen[rel] = true
					errs = append(errs, fmt.Sprintf("%s:%d: no golden copy %s (record it with `conformance golden`)", s.File, s.Line, rel))
				}
			}
		}
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "\n"))
	}
	return nil
}
