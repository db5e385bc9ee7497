package toolnexus

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// grepBinaryProbe is how much of a file is checked for a NUL byte: a file with one is
// taken as binary and skipped, as grep tools do, since its "lines" mean nothing.
const grepBinaryProbe = 8000

func grepTool() Tool {
	return builtinTool("grep",
		"Search file contents under a directory with a regular expression (Go RE2 syntax). Prints file:line:text, sorted by file then line.",
		objectSchema(map[string]any{
			"pattern": prop("string", "Regular expression to look for"),
			"path":    prop("string", "Directory to search (default: the current directory)"),
			"include": prop("string", "Only search files matching this glob, e.g. *.go or **/*.{ts,tsx}"),
			"limit":   prop("number", "Maximum number of matching lines (default 100)"),
		}, "pattern"),
		runGrep)
}

func runGrep(args map[string]any, _ *ToolContext) ToolResult {
	pattern, err := strArg(args, "pattern", true)
	if err != nil {
		return failf("grep: %v", err)
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return failf("grep: bad pattern: %v", err)
	}
	root, err := searchRoot(args)
	if err != nil {
		return failf("grep: %v", err)
	}
	include, err := strArg(args, "include", false)
	if err != nil {
		return failf("grep: %v", err)
	}
	var filter *globMatcher
	if include != "" {
		if filter, err = compileGlob(include); err != nil {
			return failf("grep: include: %v", err)
		}
	}
	limit, err := countArg(args, "limit", defaultSearchLimit)
	if err != nil {
		return failf("grep: %v", err)
	}
	files, err := listFiles(root)
	if err != nil {
		return failf("grep: %v", err)
	}
	// Files come sorted and each is scanned top to bottom, so the matches are in
	// (path, line) order without a sort, and the scan stops at the cap.
	var hits []string
	truncated := false
scan:
	for _, f := range files {
		if filter != nil && !filter.match(f.rel) {
			continue
		}
		data, err := os.ReadFile(f.path)
		if err != nil || len(data) == 0 || bytes.IndexByte(data[:min(len(data), grepBinaryProbe)], 0) >= 0 {
			continue
		}
		for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			line = strings.TrimSuffix(line, "\r")
			if !re.MatchString(line) {
				continue
			}
			if len(hits) == limit {
				truncated = true
				break scan
			}
			hits = append(hits, fmt.Sprintf("%s:%d:%s", f.rel, i+1, line))
		}
	}
	meta := map[string]any{"count": len(hits), "truncated": truncated}
	if len(hits) == 0 {
		return ToolResult{Output: "No matches found", Metadata: meta}
	}
	return ToolResult{Output: strings.Join(hits, "\n"), Metadata: meta}
}
