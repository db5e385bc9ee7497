package toolnexus

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// apply_patch speaks opencode's patch grammar:
//
//	*** Begin Patch
//	*** Add File: <path>        then "+" lines: the new file, lines joined by "\n"
//	*** Delete File: <path>
//	*** Update File: <path>
//	*** Move to: <path>         optional, right after Update: rename as well
//	@@ <context>                a hunk; the optional context is a line to find first
//	 <context> / -<old> / +<new>
//	*** End of File             optional, ends a hunk that must sit at the end of the file
//	*** End Patch
//
// A hunk's "-" and " " lines are looked for, from where the previous hunk ended, as
// consecutive whole lines: exactly, then ignoring trailing whitespace, then ignoring
// surrounding whitespace. A hunk with only "+" lines is inserted after its context line,
// or at the end of the file without one.
//
// Every new content is computed before anything is written, and a patch that fails
// anywhere writes nothing. The output is one line per file, in patch order: "A path"
// added, "M path" updated, "D path" deleted, "R old -> new" updated and moved.

const (
	patchBegin     = "*** Begin Patch"
	patchEnd       = "*** End Patch"
	patchAdd       = "*** Add File: "
	patchDelete    = "*** Delete File: "
	patchUpdate    = "*** Update File: "
	patchMove      = "*** Move to: "
	patchEndOfFile = "*** End of File"
)

type patchOp struct {
	kind   byte // 'A', 'D' or 'M'
	path   string
	moveTo string
	add    string
	hunks  []patchHunk
}

type patchHunk struct {
	context   string
	lines     []patchLine
	eof       bool
	blankTail int // how many of the last lines were empty patch lines
}

// patchLine is one hunk line: kind ' ' (context), '-' (removed) or '+' (added).
type patchLine struct {
	kind byte
	text string
}

// old is what the hunk expects in the file: its context and removed lines.
func (h patchHunk) old() []string {
	var out []string
	for _, l := range h.lines {
		if l.kind != '+' {
			out = append(out, l.text)
		}
	}
	return out
}

// replace gives what the matched file lines become. Context lines keep the file's own
// text, so a loosely matched line (trailing blanks) is not rewritten.
func (h patchHunk) replace(matched []string) []string {
	var out []string
	k := 0
	for _, l := range h.lines {
		switch l.kind {
		case ' ':
			out = append(out, matched[k])
			k++
		case '-':
			k++
		default:
			out = append(out, l.text)
		}
	}
	return out
}

func applyPatchTool() Tool {
	return builtinTool("apply_patch",
		"Apply a patch in the *** Begin Patch / *** End Patch format: add, update (optionally move) and delete files. All or nothing.",
		objectSchema(map[string]any{
			"patchText": prop("string", "The full patch, from *** Begin Patch to *** End Patch"),
		}, "patchText"),
		runApplyPatch)
}

func runApplyPatch(args map[string]any, _ *ToolContext) ToolResult {
	text, err := strArg(args, "patchText", true)
	if err != nil {
		return failf("apply_patch: %v", err)
	}
	ops, err := parsePatch(text)
	if err != nil {
		return failf("apply_patch: %v", err)
	}
	st := &patchStage{files: map[string]*stagedFile{}}
	var summary []string
	for _, op := range ops {
		line, err := st.apply(op)
		if err != nil {
			return failf("apply_patch: %v", err)
		}
		summary = append(summary, line)
	}
	if err := st.commit(); err != nil {
		return failf("apply_patch: %v", err)
	}
	return ToolResult{Output: strings.Join(summary, "\n")}
}

// parsePatch reads the whole patch into operations; nothing is touched here.
func parsePatch(text string) ([]patchOp, error) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	i := 0
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	if i == len(lines) || strings.TrimSpace(lines[i]) != patchBegin {
		return nil, fmt.Errorf("the patch must start with %q", patchBegin)
	}
	i++
	var ops []patchOp
	for i < len(lines) {
		line := lines[i]
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == patchEnd:
			if len(ops) == 0 {
				return nil, errors.New("the patch changes no file")
			}
			return ops, nil
		case trimmed == "":
			i++
		case strings.HasPrefix(line, patchAdd):
			op := patchOp{kind: 'A', path: strings.TrimSpace(line[len(patchAdd):])}
			if op.path == "" {
				return nil, fmt.Errorf("line %d names no file: %q", i+1, line)
			}
			var body []string
			for i++; i < len(lines) && !isPatchHeader(lines[i]); i++ {
				switch {
				case strings.HasPrefix(lines[i], "+"):
					body = append(body, lines[i][1:])
				case lines[i] != "":
					return nil, fmt.Errorf("Add File %s: line %d must start with \"+\": %q", op.path, i+1, lines[i])
				}
			}
			op.add = strings.Join(body, "\n")
			ops = append(ops, op)
		case strings.HasPrefix(line, patchDelete):
			op := patchOp{kind: 'D', path: strings.TrimSpace(line[len(patchDelete):])}
			if op.path == "" {
				return nil, fmt.Errorf("line %d names no file: %q", i+1, line)
			}
			ops = append(ops, op)
			i++
		case strings.HasPrefix(line, patchUpdate):
			op := patchOp{kind: 'M', path: strings.TrimSpace(line[len(patchUpdate):])}
			if op.path == "" {
				return nil, fmt.Errorf("line %d names no file: %q", i+1, line)
			}
			i++
			if i < len(lines) && strings.HasPrefix(lines[i], patchMove) {
				if op.moveTo = strings.TrimSpace(lines[i][len(patchMove):]); op.moveTo == "" {
					return nil, fmt.Errorf("Update File %s: \"Move to\" has no path", op.path)
				}
				i++
			}
			var err error
			if op.hunks, i, err = parseHunks(op.path, lines, i); err != nil {
				return nil, err
			}
			if len(op.hunks) == 0 && op.moveTo == "" {
				return nil, fmt.Errorf("Update File %s: no hunk", op.path)
			}
			ops = append(ops, op)
		default:
			return nil, fmt.Errorf("line %d is not a file operation: %q", i+1, line)
		}
	}
	return nil, fmt.Errorf("the patch must end with %q", patchEnd)
}

// isPatchHeader is a line that ends the body of the operation before it.
func isPatchHeader(line string) bool {
	return strings.TrimSpace(line) == patchEnd || strings.HasPrefix(line, patchAdd) ||
		strings.HasPrefix(line, patchDelete) || strings.HasPrefix(line, patchUpdate)
}

// parseHunks reads an Update's hunks from lines[i] up to the next operation. Lines before
// the first "@@" open a hunk without context; an empty line is an empty context line
// (models often drop the space that should lead it).
func parseHunks(path string, lines []string, i int) ([]patchHunk, int, error) {
	var hunks []patchHunk
	var cur *patchHunk
	for ; i < len(lines) && !isPatchHeader(lines[i]); i++ {
		line := lines[i]
		switch {
		case strings.HasPrefix(line, "@@"):
			hunks = append(hunks, patchHunk{context: strings.TrimSpace(line[2:])})
			cur = &hunks[len(hunks)-1]
			continue
		case strings.TrimSpace(line) == patchEndOfFile:
			if cur == nil {
				return nil, i, fmt.Errorf("Update File %s: line %d: %q outside a hunk", path, i+1, patchEndOfFile)
			}
			cur.eof = true
			cur = nil
			continue
		}
		if cur == nil {
			hunks = append(hunks, patchHunk{})
			cur = &hunks[len(hunks)-1]
		}
		if line == "" {
			cur.blankTail++
		} else {
			cur.blankTail = 0
		}
		switch {
		case line == "":
			cur.lines = append(cur.lines, patchLine{' ', ""})
		case line[0] == ' ' || line[0] == '-' || line[0] == '+':
			cur.lines = append(cur.lines, patchLine{line[0], line[1:]})
		default:
			return nil, i, fmt.Errorf("Update File %s: line %d must start with \"+\", \"-\" or \" \": %q", path, i+1, line)
		}
	}
	// Empty lines just before the next operation separate it from this one; they are no
	// context of the last hunk.
	if cur != nil {
		cur.lines = cur.lines[:len(cur.lines)-cur.blankTail]
	}
	return hunks, i, nil
}

// applyHunks gives the file's new content, or which hunk failed.
func applyHunks(path, content string, hunks []patchHunk) (string, error) {
	endsNL := strings.HasSuffix(content, "\n")
	var lines []string
	if content != "" {
		lines = strings.Split(strings.TrimSuffix(content, "\n"), "\n")
	}
	cursor := 0
	for n, h := range hunks {
		where := fmt.Sprintf("Update File %s: hunk %d", path, n+1)
		if h.context != "" {
			where += fmt.Sprintf(" (@@ %s)", h.context)
			at := findLines(lines, []string{h.context}, cursor, false)
			if at < 0 {
				return "", fmt.Errorf("%s: context line not found", where)
			}
			cursor = at + 1
		}
		old := h.old()
		at := len(lines)
		if len(old) > 0 {
			if at = findLines(lines, old, cursor, h.eof); at < 0 {
				return "", fmt.Errorf("%s does not match the file; expected lines:\n%s", where, strings.Join(old, "\n"))
			}
		} else if h.context != "" {
			at = cursor
		}
		repl := h.replace(lines[at : at+len(old)])
		lines = append(lines[:at:at], append(repl, lines[at+len(old):]...)...)
		cursor = at + len(repl)
	}
	out := strings.Join(lines, "\n")
	if len(lines) > 0 && (endsNL || content == "") {
		out += "\n"
	}
	return out, nil
}

// findLines finds want as consecutive lines at or after from (only at the very end when
// atEOF), trying ever looser comparisons; -1 when none matches.
func findLines(lines, want []string, from int, atEOF bool) int {
	loose := []func(string) string{
		func(s string) string { return s },
		func(s string) string { return strings.TrimRight(s, " \t") },
		strings.TrimSpace,
	}
	for _, norm := range loose {
		first, last := from, len(lines)-len(want)
		if atEOF {
			first = max(first, last)
		}
	next:
		for at := first; at <= last; at++ {
			for k, w := range want {
				if norm(lines[at+k]) != norm(w) {
					continue next
				}
			}
			return at
		}
	}
	return -1
}

// patchStage is the files a patch touches, as they will be: content nil means deleted.
// Reads go through it, so later operations see earlier ones.
type patchStage struct {
	files map[string]*stagedFile
	order []string
}

type stagedFile struct {
	path    string // as the patch wrote it
	content *string
	onDisk  bool        // the file existed before the patch
	mode    os.FileMode // its permissions, kept by a rewrite
}

func (st *patchStage) entry(path string) (*stagedFile, error) {
	key, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if f, ok := st.files[key]; ok {
		return f, nil
	}
	f := &stagedFile{path: path, mode: 0o644}
	info, err := os.Stat(path)
	switch {
	case err == nil && info.IsDir():
		return nil, fmt.Errorf("%s is a directory", path)
	case err == nil:
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		s := string(data)
		f.content, f.onDisk, f.mode = &s, true, info.Mode().Perm()
	case !errors.Is(err, os.ErrNotExist):
		return nil, err
	}
	st.files[key] = f
	st.order = append(st.order, key)
	return f, nil
}

// apply stages one operation and returns its summary line.
func (st *patchStage) apply(op patchOp) (string, error) {
	f, err := st.entry(op.path)
	if err != nil {
		return "", err
	}
	switch op.kind {
	case 'A':
		if f.content != nil {
			return "", fmt.Errorf("Add File %s: the file already exists", op.path)
		}
		f.content = &op.add
		return "A " + op.path, nil
	case 'D':
		if f.content == nil {
			return "", fmt.Errorf("Delete File %s: no such file", op.path)
		}
		f.content = nil
		return "D " + op.path, nil
	}
	if f.content == nil {
		return "", fmt.Errorf("Update File %s: no such file", op.path)
	}
	next, err := applyHunks(op.path, *f.content, op.hunks)
	if err != nil {
		return "", err
	}
	if op.moveTo == "" {
		f.content = &next
		return "M " + op.path, nil
	}
	to, err := st.entry(op.moveTo)
	if err != nil {
		return "", err
	}
	if to != f {
		if to.content != nil {
			return "", fmt.Errorf("Update File %s: Move to %s: the file already exists", op.path, op.moveTo)
		}
		f.content = nil
		to.mode = f.mode
	}
	to.content = &next
	return "R " + op.path + " -> " + op.moveTo, nil
}

// commit writes the staged files: each new content goes to a temporary file beside its
// target first, and only when all are written are they renamed into place and the
// deleted files removed, so a failed write leaves every file as it was.
func (st *patchStage) commit() error {
	type pendingRename struct{ tmp, dst string }
	var renames []pendingRename
	undo := func() {
		for _, r := range renames {
			os.Remove(r.tmp)
		}
	}
	for _, key := range st.order {
		f := st.files[key]
		if f.content == nil {
			continue
		}
		tmp, err := writeTemp(f.path, *f.content, f.mode)
		if err != nil {
			undo()
			return err
		}
		renames = append(renames, pendingRename{tmp, f.path})
	}
	for i, r := range renames {
		if err := os.Rename(r.tmp, r.dst); err != nil {
			renames = renames[i:]
			undo()
			return err
		}
	}
	for _, key := range st.order {
		if f := st.files[key]; f.content == nil && f.onDisk {
			if err := os.Remove(f.path); err != nil {
				return err
			}
		}
	}
	return nil
}

func writeTemp(path, content string, mode os.FileMode) (string, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, ".apply_patch-*")
	if err != nil {
		return "", err
	}
	_, err = tmp.WriteString(content)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), mode)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return tmp.Name(), nil
}
