package toolnexus

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// treeOf reads every file under dir as rel path -> content.
func treeOf(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = readTestFile(t, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func patchOf(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

func TestApplyPatchTool(t *testing.T) {
	base := map[string]string{
		"keep.txt": "alpha\nbeta\ngamma\n",
		"code.go":  "package x\n\nfunc a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 1\n}\n",
		"old.txt":  "bye\n",
		"nonl.txt": "no newline",
	}
	cases := []struct {
		name    string
		patch   string
		isError bool
		output  string
		changed map[string]string // files differing from base; "" value with del means deleted
		deleted []string
	}{
		{"add, update and delete", patchOf(
			"*** Begin Patch",
			"*** Add File: new/dir/n.txt",
			"+first",
			"+",
			"+last",
			"*** Update File: keep.txt",
			"@@",
			" alpha",
			"-beta",
			"+BETA",
			" gamma",
			"*** Delete File: old.txt",
			"*** End Patch"),
			false, "A new/dir/n.txt\nM keep.txt\nD old.txt",
			map[string]string{"new/dir/n.txt": "first\n\nlast", "keep.txt": "alpha\nBETA\ngamma\n"}, []string{"old.txt"}},
		{"a context line picks the occurrence", patchOf(
			"*** Begin Patch",
			"*** Update File: code.go",
			"@@ func b() {",
			"-\treturn 1",
			"+\treturn 2",
			"*** End Patch"),
			false, "M code.go",
			map[string]string{"code.go": "package x\n\nfunc a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 2\n}\n"}, nil},
		{"hunks apply in order, and lines before the first @@ form a hunk", patchOf(
			"*** Begin Patch",
			"*** Update File: code.go",
			"-\treturn 1",
			"+\treturn 10",
			"@@",
			"-\treturn 1",
			"+\treturn 20",
			"*** End Patch"),
			false, "M code.go",
			map[string]string{"code.go": "package x\n\nfunc a() {\n\treturn 10\n}\n\nfunc b() {\n\treturn 20\n}\n"}, nil},
		{"trailing whitespace is forgiven, and an empty line is empty context", patchOf(
			"*** Begin Patch",
			"*** Update File: code.go",
			"@@ func a() {   ",
			" \treturn 1   ",
			" }",
			"",
			"+// between",
			" func b() {",
			"*** End Patch"),
			false, "M code.go",
			map[string]string{"code.go": "package x\n\nfunc a() {\n\treturn 1\n}\n\n// between\nfunc b() {\n\treturn 1\n}\n"}, nil},
		{"an insertion goes after its context line", patchOf(
			"*** Begin Patch",
			"*** Update File: keep.txt",
			"@@ alpha",
			"+after alpha",
			"*** End Patch"),
			false, "M keep.txt",
			map[string]string{"keep.txt": "alpha\nafter alpha\nbeta\ngamma\n"}, nil},
		{"an insertion without context goes at the end", patchOf(
			"*** Begin Patch",
			"*** Update File: keep.txt",
			"@@",
			"+delta",
			"*** End Patch"),
			false, "M keep.txt",
			map[string]string{"keep.txt": "alpha\nbeta\ngamma\ndelta\n"}, nil},
		{"End of File anchors at the end; a file without a final newline keeps it so", patchOf(
			"*** Begin Patch",
			"*** Update File: nonl.txt",
			"@@",
			"-no newline",
			"+still none",
			"*** End of File",
			"*** End Patch"),
			false, "M nonl.txt",
			map[string]string{"nonl.txt": "still none"}, nil},
		{"move", patchOf(
			"*** Begin Patch",
			"*** Update File: keep.txt",
			"*** Move to: moved/keep.txt",
			"@@",
			"-gamma",
			"+GAMMA",
			"*** End Patch"),
			false, "R keep.txt -> moved/keep.txt",
			map[string]string{"moved/keep.txt": "alpha\nbeta\nGAMMA\n"}, []string{"keep.txt"}},
		{"a pure rename", patchOf(
			"*** Begin Patch",
			"*** Update File: old.txt",
			"*** Move to: renamed.txt",
			"*** End Patch"),
			false, "R old.txt -> renamed.txt",
			map[string]string{"renamed.txt": "bye\n"}, []string{"old.txt"}},
		{"later operations see earlier ones", patchOf(
			"*** Begin Patch",
			"*** Delete File: old.txt",
			"*** Add File: old.txt",
			"+reborn",
			"*** Update File: old.txt",
			"@@",
			"-reborn",
			"+again",
			"*** End Patch"),
			false, "D old.txt\nA old.txt\nM old.txt",
			map[string]string{"old.txt": "again"}, nil},
		{"CRLF and blank lines around the envelope", "\r\n*** Begin Patch\r\n*** Add File: w.txt\r\n+win\r\n\r\n*** End Patch\r\n\r\n",
			false, "A w.txt", map[string]string{"w.txt": "win"}, nil},
		{"a blank line before the next operation is no context", patchOf(
			"*** Begin Patch",
			"*** Update File: keep.txt",
			"@@",
			"-gamma",
			"+GAMMA",
			"",
			"*** Delete File: old.txt",
			"*** End Patch"),
			false, "M keep.txt\nD old.txt",
			map[string]string{"keep.txt": "alpha\nbeta\nGAMMA\n"}, []string{"old.txt"}},

		// Failures write nothing, even when earlier operations were fine.
		{"a hunk that does not match", patchOf(
			"*** Begin Patch",
			"*** Add File: fresh.txt",
			"+x",
			"*** Delete File: old.txt",
			"*** Update File: keep.txt",
			"@@",
			"-beta",
			"+B",
			"@@",
			"-nothing like this",
			"+y",
			"*** End Patch"),
			true, "apply_patch: Update File keep.txt: hunk 2 does not match the file; expected lines:\nnothing like this", nil, nil},
		{"a context line that is missing", patchOf(
			"*** Begin Patch",
			"*** Update File: keep.txt",
			"@@ omega",
			"-beta",
			"+B",
			"*** End Patch"),
			true, "apply_patch: Update File keep.txt: hunk 1 (@@ omega): context line not found", nil, nil},
		{"hunks never go backwards", patchOf(
			"*** Begin Patch",
			"*** Update File: keep.txt",
			"@@",
			"-gamma",
			"+G",
			"@@",
			"-alpha",
			"+A",
			"*** End Patch"),
			true, "apply_patch: Update File keep.txt: hunk 2 does not match the file; expected lines:\nalpha", nil, nil},
		{"End of File that is not at the end", patchOf(
			"*** Begin Patch",
			"*** Update File: keep.txt",
			"@@",
			"-alpha",
			"+A",
			"*** End of File",
			"*** End Patch"),
			true, "apply_patch: Update File keep.txt: hunk 1 does not match the file; expected lines:\nalpha", nil, nil},
		{"add of an existing file", patchOf("*** Begin Patch", "*** Add File: keep.txt", "+x", "*** End Patch"),
			true, "apply_patch: Add File keep.txt: the file already exists", nil, nil},
		{"delete of a missing file", patchOf("*** Begin Patch", "*** Add File: a.txt", "+a", "*** Delete File: ghost.txt", "*** End Patch"),
			true, "apply_patch: Delete File ghost.txt: no such file", nil, nil},
		{"update of a missing file", patchOf("*** Begin Patch", "*** Update File: ghost.txt", "@@", "-a", "+b", "*** End Patch"),
			true, "apply_patch: Update File ghost.txt: no such file", nil, nil},
		{"a move onto an existing file", patchOf("*** Begin Patch", "*** Update File: old.txt", "*** Move to: keep.txt", "*** End Patch"),
			true, "apply_patch: Update File old.txt: Move to keep.txt: the file already exists", nil, nil},
		{"no Begin Patch", patchOf("*** Add File: a.txt", "+a", "*** End Patch"),
			true, `apply_patch: the patch must start with "*** Begin Patch"`, nil, nil},
		{"no End Patch", patchOf("*** Begin Patch", "*** Add File: a.txt", "+a"),
			true, `apply_patch: the patch must end with "*** End Patch"`, nil, nil},
		{"an empty patch", patchOf("*** Begin Patch", "*** End Patch"),
			true, "apply_patch: the patch changes no file", nil, nil},
		{"an unknown header", patchOf("*** Begin Patch", "*** Rename File: a", "*** End Patch"),
			true, `apply_patch: line 2 is not a file operation: "*** Rename File: a"`, nil, nil},
		{"an Add line without +", patchOf("*** Begin Patch", "*** Add File: a.txt", "oops", "*** End Patch"),
			true, `apply_patch: Add File a.txt: line 3 must start with "+": "oops"`, nil, nil},
		{"a hunk line without a prefix", patchOf("*** Begin Patch", "*** Update File: keep.txt", "@@", "beta", "*** End Patch"),
			true, `apply_patch: Update File keep.txt: line 4 must start with "+", "-" or " ": "beta"`, nil, nil},
		{"an update without hunks", patchOf("*** Begin Patch", "*** Update File: keep.txt", "*** End Patch"),
			true, "apply_patch: Update File keep.txt: no hunk", nil, nil},
		{"a path-less operation", patchOf("*** Begin Patch", "*** Delete File: ", "*** End Patch"),
			true, `apply_patch: line 2 names no file: "*** Delete File: "`, nil, nil},
		{"a directory", patchOf("*** Begin Patch", "*** Delete File: sub", "*** End Patch"),
			true, "apply_patch: sub is a directory", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range base {
				writeTestFile(t, filepath.Join(dir, name), content)
			}
			if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
				t.Fatal(err)
			}
			t.Chdir(dir)
			res := runBuiltin(t, "apply_patch", map[string]any{"patchText": c.patch}, nil)
			wantBuiltinResult(t, res, c.isError, c.output)
			want := map[string]string{}
			for k, v := range base {
				want[k] = v
			}
			for _, d := range c.deleted {
				delete(want, d)
			}
			for k, v := range c.changed {
				want[k] = v
			}
			if got := treeOf(t, dir); !reflect.DeepEqual(got, want) {
				t.Fatalf("files:\n got  %q\n want %q", got, want)
			}
		})
	}
}

func TestApplyPatchKeepsModeAndLeavesNoTemporaries(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "run.sh")
	writeTestFile(t, script, "echo a\n")
	if err := os.Chmod(script, 0o755); err != nil {
		t.Fatal(err)
	}
	patch := patchOf("*** Begin Patch", "*** Update File: "+script, "@@", "-echo a", "+echo b", "*** Add File: "+filepath.Join(dir, "n.txt"), "+n", "*** End Patch")
	res := runBuiltin(t, "apply_patch", map[string]any{"patchText": patch}, nil)
	if res.IsError {
		t.Fatal(res.Output)
	}
	if info, _ := os.Stat(script); info.Mode().Perm() != 0o755 {
		t.Fatalf("mode = %v", info.Mode())
	}
	if info, _ := os.Stat(filepath.Join(dir, "n.txt")); info.Mode().Perm() != 0o644 {
		t.Fatalf("new file mode = %v", info.Mode())
	}
	var names []string
	for name := range treeOf(t, dir) {
		names = append(names, name)
	}
	sort.Strings(names)
	if strings.Join(names, ",") != "n.txt,run.sh" {
		t.Fatalf("files = %v", names)
	}
}
