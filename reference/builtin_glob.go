package toolnexus

import (
	"fmt"
	"io/fs"
	"os"
	slashpath "path"
	"path/filepath"
	"sort"
	"strings"
)

// The glob dialect of grep's include and of glob (ripgrep-like, as opencode's tools use):
//   - `*`, `?` and `[...]` work within one path segment (path.Match);
//   - `**` as a whole segment matches any number of segments, none included (at the
//     end, at least one: `src/**` is what is inside src);
//   - `{a,b}` alternatives expand first, and may nest;
//   - a pattern without `/` is matched against the base name, at any depth.
// Paths are compared in forward-slash form, relative to the search root.

// globMatcher is a compiled pattern: its brace expansions, each split into segments.
type globMatcher struct {
	alternatives [][]string
	baseOnly     bool
}

func compileGlob(pattern string) (*globMatcher, error) {
	pattern = strings.TrimPrefix(filepath.ToSlash(pattern), "./")
	if pattern == "" {
		return nil, fmt.Errorf("empty glob")
	}
	m := &globMatcher{baseOnly: !strings.Contains(pattern, "/")}
	for _, alt := range expandBraces(pattern) {
		segs := strings.Split(alt, "/")
		for _, s := range segs {
			if _, err := slashpath.Match(s, ""); err != nil {
				return nil, fmt.Errorf("bad glob %q: %v", pattern, err)
			}
		}
		m.alternatives = append(m.alternatives, segs)
	}
	return m, nil
}

// match reports whether rel (slash-separated, relative) matches.
func (m *globMatcher) match(rel string) bool {
	if m.baseOnly {
		rel = slashpath.Base(rel)
	}
	parts := strings.Split(rel, "/")
	for _, segs := range m.alternatives {
		if matchSegments(segs, parts) {
			return true
		}
	}
	return false
}

func matchSegments(segs, parts []string) bool {
	for len(segs) > 0 {
		if segs[0] == "**" {
			rest := segs[1:]
			if len(rest) == 0 { // a trailing ** is what lies inside, not the directory itself
				return len(parts) > 0
			}
			for i := 0; i <= len(parts); i++ {
				if matchSegments(rest, parts[i:]) {
					return true
				}
			}
			return false
		}
		if len(parts) == 0 {
			return false
		}
		if ok, _ := slashpath.Match(segs[0], parts[0]); !ok {
			return false
		}
		segs, parts = segs[1:], parts[1:]
	}
	return len(parts) == 0
}

// expandBraces turns "a{b,c{d,e}}f" into [abf acdf acef]. An unmatched brace is literal.
func expandBraces(p string) []string {
	open := strings.IndexByte(p, '{')
	if open < 0 {
		return []string{p}
	}
	depth, end := 0, -1
	var commas []int
	for i := open; i < len(p) && end < 0; i++ {
		switch p[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				end = i
			}
		case ',':
			if depth == 1 {
				commas = append(commas, i)
			}
		}
	}
	if end < 0 {
		return []string{p}
	}
	var out []string
	prefix, suffixes := p[:open], expandBraces(p[end+1:])
	from := open + 1
	for _, cut := range append(commas, end) {
		for _, mid := range expandBraces(p[from:cut]) {
			for _, suf := range suffixes {
				out = append(out, prefix+mid+suf)
			}
		}
		from = cut + 1
	}
	return out
}

// searchSkipDirs are never descended into: version-control and dependency trees would
// flood the results and are not what a model searching a project means.
var searchSkipDirs = map[string]bool{".git": true, "node_modules": true}

// searchFile is one regular file found under a search root.
type searchFile struct {
	path string // as the OS opens it
	rel  string // slash form, relative to the root
}

// listFiles walks root and returns its regular files sorted by relative path, so every
// caller sees one deterministic order. A root that is a file lists that file.
func listFiles(root string) ([]searchFile, error) {
	info, err := os.Stat(root)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []searchFile{{path: root, rel: filepath.Base(root)}}, nil
	}
	var out []searchFile
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable corner is skipped, not fatal
		}
		if d.IsDir() {
			if p != root && searchSkipDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return nil
		}
		out = append(out, searchFile{path: p, rel: filepath.ToSlash(rel)})
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].rel < out[j].rel })
	return out, err
}

func globTool() Tool {
	return builtinTool("glob",
		"List the files under a directory whose paths match a glob (** spans directories). Paths are relative and sorted.",
		objectSchema(map[string]any{
			"pattern": prop("string", "Glob to match, e.g. **/*.go or *.{ts,tsx}"),
			"path":    prop("string", "Directory to search (default: the current directory)"),
			"limit":   prop("number", "Maximum number of paths (default 100)"),
		}, "pattern"),
		runGlob)
}

func runGlob(args map[string]any, _ *ToolContext) ToolResult {
	pattern, err := strArg(args, "pattern", true)
	if err != nil {
		return failf("glob: %v", err)
	}
	root, err := searchRoot(args)
	if err != nil {
		return failf("glob: %v", err)
	}
	limit, err := countArg(args, "limit", defaultSearchLimit)
	if err != nil {
		return failf("glob: %v", err)
	}
	m, err := compileGlob(pattern)
	if err != nil {
		return failf("glob: %v", err)
	}
	files, err := listFiles(root)
	if err != nil {
		return failf("glob: %v", err)
	}
	var found []string
	truncated := false
	for _, f := range files {
		if !m.match(f.rel) {
			continue
		}
		if len(found) == limit {
			truncated = true
			break
		}
		found = append(found, f.rel)
	}
	meta := map[string]any{"count": len(found), "truncated": truncated}
	if len(found) == 0 {
		return ToolResult{Output: "No files found", Metadata: meta}
	}
	return ToolResult{Output: strings.Join(found, "\n"), Metadata: meta}
}

const defaultSearchLimit = 100

// searchRoot is the optional "path" argument; absent or empty means the current directory.
func searchRoot(args map[string]any) (string, error) {
	root, err := strArg(args, "path", false)
	if root == "" {
		root = "."
	}
	return root, err
}
