package toolnexus

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// searchTree lays out a small project for grep and glob.
func searchTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"main.go":               "package main\n// TODO: one\nfunc main() {}\n",
		"a.go":                  "package a\n\n// todo lower\n// TODO: two\n",
		"a/b.go":                "package b // TODO: nested\n",
		"a/deep/c.ts":           "// TODO: ts\r\n",
		"a/deep/d.tsx":          "TODO tsx",
		"docs/readme.md":        "TODO: docs\n",
		"bin.dat":               "TODO\x00binary",
		"empty.txt":             "",
		".git/config":           "TODO: hidden in git",
		"node_modules/x/i.js":   "TODO: dependency",
		"space dir/odd [1].txt": "TODO odd",
	}
	for name, content := range files {
		writeTestFile(t, filepath.Join(dir, filepath.FromSlash(name)), content)
	}
	return dir
}

func TestGrepTool(t *testing.T) {
	dir := searchTree(t)
	cases := []struct {
		name    string
		args    map[string]any
		isError bool
		output  string
	}{
		{"sorted by path then line, relative, skipping binary and vendored trees", map[string]any{"pattern": "TODO:"}, false,
			"a.go:4:// TODO: two\na/b.go:1:package b // TODO: nested\na/deep/c.ts:1:// TODO: ts\ndocs/readme.md:1:TODO: docs\nmain.go:2:// TODO: one"},
		{"include on the base name", map[string]any{"pattern": "TODO", "include": "*.go"}, false,
			"a.go:4:// TODO: two\na/b.go:1:package b // TODO: nested\nmain.go:2:// TODO: one"},
		{"include with ** and braces", map[string]any{"pattern": "TODO", "include": "a/**/*.{ts,tsx}"}, false,
			"a/deep/c.ts:1:// TODO: ts\na/deep/d.tsx:1:TODO tsx"},
		{"a regular expression", map[string]any{"pattern": `(?i)todo\s+lower`}, false, "a.go:3:// todo lower"},
		{"limit caps the matches", map[string]any{"pattern": "TODO", "limit": 2.0}, false, "a.go:4:// TODO: two\na/b.go:1:package b // TODO: nested"},
		{"a sub directory as path", map[string]any{"pattern": "TODO", "path": filepath.Join(dir, "a", "deep")}, false, "c.ts:1:// TODO: ts\nd.tsx:1:TODO tsx"},
		{"a file as path", map[string]any{"pattern": "TODO", "path": filepath.Join(dir, "main.go")}, false, "main.go:2:// TODO: one"},
		{"no match is no error", map[string]any{"pattern": "NOTHING_HERE"}, false, "No matches found"},
		{"an empty file matches no empty line", map[string]any{"pattern": "^$", "include": "empty.txt"}, false, "No matches found"},
		{"a bad pattern", map[string]any{"pattern": "("}, true, "grep: bad pattern: error parsing regexp: missing closing ): `(`"},
		{"a missing path", map[string]any{"pattern": "x", "path": filepath.Join(dir, "none")}, true, "grep: stat " + filepath.Join(dir, "none") + ": no such file or directory"},
		{"a bad include", map[string]any{"pattern": "x", "include": "[a"}, true, `grep: include: bad glob "[a": syntax error in pattern`},
		{"a zero limit", map[string]any{"pattern": "x", "limit": 0.0}, true, `grep: "limit" must be a whole number of at least 1, got 0`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := map[string]any{"path": dir}
			for k, v := range c.args {
				args[k] = v
			}
			res := runBuiltin(t, "grep", args, nil)
			wantBuiltinResult(t, res, c.isError, c.output)
		})
	}
	res := runBuiltin(t, "grep", map[string]any{"pattern": "TODO", "path": dir, "limit": 1.0}, nil)
	if res.Metadata["truncated"] != true || res.Metadata["count"] != 1 {
		t.Fatalf("metadata = %v", res.Metadata)
	}
	t.Chdir(dir)
	if res := runBuiltin(t, "grep", map[string]any{"pattern": "docs"}, nil); res.Output != "docs/readme.md:1:TODO: docs" {
		t.Fatalf("default path: %+v", res)
	}
}

func TestGlobTool(t *testing.T) {
	dir := searchTree(t)
	cases := []struct {
		name    string
		args    map[string]any
		isError bool
		output  string
	}{
		{"a slash-less glob matches base names at any depth", map[string]any{"pattern": "*.go"}, false, "a.go\na/b.go\nmain.go"},
		{"** spans directories", map[string]any{"pattern": "a/**/*.ts"}, false, "a/deep/c.ts"},
		{"** matches zero directories", map[string]any{"pattern": "**/a.go"}, false, "a.go"},
		{"a one-level glob stays at its level", map[string]any{"pattern": "a/*.go"}, false, "a/b.go"},
		{"braces", map[string]any{"pattern": "**/*.{md,tsx}"}, false, "a/deep/d.tsx\ndocs/readme.md"},
		{"a leading ./ is ignored", map[string]any{"pattern": "./docs/*"}, false, "docs/readme.md"},
		{"spaces and brackets in names", map[string]any{"pattern": "space dir/*"}, false, "space dir/odd [1].txt"},
		{"limit", map[string]any{"pattern": "**", "limit": 3.0}, false, "a.go\na/b.go\na/deep/c.ts"},
		{"no match is no error", map[string]any{"pattern": "*.rs"}, false, "No files found"},
		{"no pattern", map[string]any{}, true, `glob: "pattern" is required`},
		{"a missing path", map[string]any{"pattern": "*", "path": filepath.Join(dir, "none")}, true, "glob: stat " + filepath.Join(dir, "none") + ": no such file or directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := map[string]any{"path": dir}
			for k, v := range c.args {
				args[k] = v
			}
			res := runBuiltin(t, "glob", args, nil)
			wantBuiltinResult(t, res, c.isError, c.output)
		})
	}
	all := runBuiltin(t, "glob", map[string]any{"pattern": "**", "path": dir}, nil)
	want := "a.go\na/b.go\na/deep/c.ts\na/deep/d.tsx\nbin.dat\ndocs/readme.md\nempty.txt\nmain.go\nspace dir/odd [1].txt"
	if all.Output != want {
		t.Fatalf("everything:\n%s", all.Output)
	}
	t.Chdir(dir)
	if res := runBuiltin(t, "glob", map[string]any{"pattern": "docs/*.md"}, nil); res.Output != "docs/readme.md" {
		t.Fatalf("default path: %+v", res)
	}
}

func TestGlobDialect(t *testing.T) {
	cases := []struct {
		pattern string
		match   []string
		miss    []string
	}{
		{"*.go", []string{"a.go", "x/y/a.go"}, []string{"a.go.txt", "go"}},
		{"src/**", []string{"src/a", "src/a/b/c"}, []string{"src", "lib/a"}},
		{"**/test/*.js", []string{"test/a.js", "x/test/a.js"}, []string{"x/test/y/a.js"}},
		{"a?c", []string{"abc", "d/abc"}, []string{"ac", "abbc"}},
		{"[ab]*.txt", []string{"a1.txt", "b.txt"}, []string{"c.txt"}},
		{"*.{js,{ts,tsx}}", []string{"a.js", "a.ts", "a.tsx"}, []string{"a.jsx"}},
		{"{unclosed", []string{"{unclosed"}, []string{"unclosed"}},
	}
	for _, c := range cases {
		m, err := compileGlob(c.pattern)
		if err != nil {
			t.Fatalf("%s: %v", c.pattern, err)
		}
		for _, p := range c.match {
			if !m.match(p) {
				t.Errorf("%s should match %s", c.pattern, p)
			}
		}
		for _, p := range c.miss {
			if m.match(p) {
				t.Errorf("%s should not match %s", c.pattern, p)
			}
		}
	}
	if got := expandBraces("a{b,c{d,e}}f{1,2}"); !reflect.DeepEqual(got, []string{"abf1", "abf2", "acdf1", "acdf2", "acef1", "acef2"}) {
		t.Fatalf("braces: %v", got)
	}
	for _, bad := range []string{"", "a/[b"} {
		if _, err := compileGlob(bad); err == nil {
			t.Fatalf("%q compiled", bad)
		}
	}
}

func TestGrepDefaultLimitIs100(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := 0; i < 150; i++ {
		fmt.Fprintf(&b, "hit %d\n", i)
	}
	writeTestFile(t, filepath.Join(dir, "many.txt"), b.String())
	res := runBuiltin(t, "grep", map[string]any{"pattern": "hit", "path": dir}, nil)
	lines := strings.Split(res.Output, "\n")
	if len(lines) != 100 || lines[99] != "many.txt:100:hit 99" {
		t.Fatalf("%d lines, last %q", len(lines), lines[len(lines)-1])
	}
	for i := 0; i < 150; i++ {
		writeTestFile(t, filepath.Join(dir, "g", fmt.Sprintf("f%03d", i)), "")
	}
	res = runBuiltin(t, "glob", map[string]any{"pattern": "g/*", "path": dir}, nil)
	if lines := strings.Split(res.Output, "\n"); len(lines) != 100 || lines[99] != "g/f099" {
		t.Fatalf("glob: %d lines", len(lines))
	}
}
