package toolnexus

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeTestFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readTestFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestReadTool(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "f.txt")
	writeTestFile(t, f, "one\ntwo\nthree\nfour\n")
	writeTestFile(t, filepath.Join(dir, "bin"), "\xff\xfe")
	cases := []struct {
		name    string
		args    map[string]any
		isError bool
		output  string
	}{
		{"whole file, verbatim", map[string]any{"path": f}, false, "one\ntwo\nthree\nfour\n"},
		{"offset and limit", map[string]any{"path": f, "offset": 2.0, "limit": 2.0}, false, "two\nthree"},
		{"json.Number window", map[string]any{"path": f, "offset": json.Number("3"), "limit": json.Number("1")}, false, "three"},
		{"offset alone reads to the end, the final newline kept", map[string]any{"path": f, "offset": 3.0}, false, "three\nfour\n"},
		{"limit alone starts at line 1", map[string]any{"path": f, "limit": 1.0}, false, "one"},
		{"a limit past the end", map[string]any{"path": f, "offset": 4.0, "limit": 10.0}, false, "four\n"},
		{"an offset past the end", map[string]any{"path": f, "offset": 9.0}, false, ""},
		{"offset 0", map[string]any{"path": f, "offset": 0.0}, true, `read: "offset" must be a whole number of at least 1, got 0`},
		{"a fractional limit", map[string]any{"path": f, "limit": 1.5}, true, `read: "limit" must be a whole number of at least 1, got 1.5`},
		{"missing file", map[string]any{"path": filepath.Join(dir, "nope")}, true, "read: open " + filepath.Join(dir, "nope") + ": no such file or directory"},
		{"not UTF-8", map[string]any{"path": filepath.Join(dir, "bin")}, true, "read: " + filepath.Join(dir, "bin") + " is not UTF-8 text"},
		{"no path", map[string]any{}, true, `read: "path" is required`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := runBuiltin(t, "read", c.args, nil)
			wantBuiltinResult(t, res, c.isError, c.output)
		})
	}
}

func TestReadRelativeToWorkingDirectory(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeTestFile(t, filepath.Join(dir, "rel.txt"), "here")
	if res := runBuiltin(t, "read", map[string]any{"path": "rel.txt"}, nil); res.IsError || res.Output != "here" {
		t.Fatalf("%+v", res)
	}
}

func TestWriteTool(t *testing.T) {
	dir := t.TempDir()
	deep := filepath.Join(dir, "a", "b", "c.txt")
	cases := []struct {
		name    string
		args    map[string]any
		isError bool
		output  string
		file    string
	}{
		{"creates parent dirs", map[string]any{"path": deep, "content": "héllo"}, false, "Wrote 6 bytes to " + deep, "héllo"},
		{"overwrites", map[string]any{"path": deep, "content": "x"}, false, "Wrote 1 bytes to " + deep, "x"},
		{"empty content", map[string]any{"path": deep, "content": ""}, false, "Wrote 0 bytes to " + deep, ""},
		{"content is required", map[string]any{"path": deep}, true, `write: "content" is required`, ""},
		{"a directory", map[string]any{"path": dir, "content": "x"}, true, "write: open " + dir + ": is a directory", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := runBuiltin(t, "write", c.args, nil)
			wantBuiltinResult(t, res, c.isError, c.output)
			if !c.isError && readTestFile(t, deep) != c.file {
				t.Fatalf("file = %q", readTestFile(t, deep))
			}
		})
	}
	t.Chdir(dir)
	if res := runBuiltin(t, "write", map[string]any{"path": "sub/rel.txt", "content": "r"}, nil); res.Output != "Wrote 1 bytes to sub/rel.txt" {
		t.Fatalf("%+v", res)
	}
	if readTestFile(t, filepath.Join(dir, "sub", "rel.txt")) != "r" {
		t.Fatal("a relative path was not resolved against the working directory")
	}
}

func TestEditTool(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "e.txt")
	cases := []struct {
		name    string
		before  string
		args    map[string]any
		isError bool
		output  string
		after   string
	}{
		{"single occurrence", "a foo b", map[string]any{"oldString": "foo", "newString": "bar"}, false, "Edited " + f + " (1 replacement)", "a bar b"},
		{"not found", "a foo b", map[string]any{"oldString": "zzz", "newString": "bar"}, true, "edit: oldString was not found in " + f, "a foo b"},
		{"not unique", "foo foo", map[string]any{"oldString": "foo", "newString": "bar"}, true, "edit: oldString occurs 2 times in " + f + "; make it unique or set replaceAll", "foo foo"},
		{"replaceAll", "foo foo foo", map[string]any{"oldString": "foo", "newString": "x", "replaceAll": true}, false, "Edited " + f + " (3 replacements)", "x x x"},
		{"replaceAll false on a unique string", "foo", map[string]any{"oldString": "foo", "newString": "", "replaceAll": false}, false, "Edited " + f + " (1 replacement)", ""},
		{"multi-line exact text", "l1\nl2\nl3\n", map[string]any{"oldString": "l2\nl3", "newString": "L"}, false, "Edited " + f + " (1 replacement)", "l1\nL\n"},
		{"empty oldString", "abc", map[string]any{"oldString": "", "newString": "x"}, true, `edit: "oldString" is empty`, "abc"},
		{"newString is required", "abc", map[string]any{"oldString": "a"}, true, `edit: "newString" is required`, "abc"},
		{"replaceAll must be a boolean", "abc", map[string]any{"oldString": "a", "newString": "b", "replaceAll": "yes"}, true, `edit: "replaceAll" must be a boolean, got a string`, "abc"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			writeTestFile(t, f, c.before)
			args := map[string]any{"path": f}
			for k, v := range c.args {
				args[k] = v
			}
			res := runBuiltin(t, "edit", args, nil)
			wantBuiltinResult(t, res, c.isError, c.output)
			if got := readTestFile(t, f); got != c.after {
				t.Fatalf("file = %q, want %q", got, c.after)
			}
		})
	}
	res := runBuiltin(t, "edit", map[string]any{"path": filepath.Join(dir, "none"), "oldString": "a", "newString": "b"}, nil)
	if !res.IsError || !strings.Contains(res.Output, "no such file") {
		t.Fatalf("missing file: %+v", res)
	}
	// A rewrite keeps the file's permissions.
	writeTestFile(t, f, "run")
	if err := os.Chmod(f, 0o755); err != nil {
		t.Fatal(err)
	}
	runBuiltin(t, "edit", map[string]any{"path": f, "oldString": "run", "newString": "ran"}, nil)
	if info, _ := os.Stat(f); info.Mode().Perm() != 0o755 {
		t.Fatalf("mode = %v", info.Mode())
	}
}
