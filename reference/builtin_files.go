package toolnexus

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// The file builtins: read, write, edit. Paths are used as given, so a relative one is
// relative to the process working directory (§4A).

func readTool() Tool {
	return builtinTool("read",
		"Read a UTF-8 text file, whole or a window of lines.",
		objectSchema(map[string]any{
			"path":   prop("string", "The file to read"),
			"offset": prop("number", "First line to return, counting from 1"),
			"limit":  prop("number", "Number of lines to return"),
		}, "path"),
		runRead)
}

func runRead(args map[string]any, _ *ToolContext) ToolResult {
	path, err := strArg(args, "path", true)
	if err != nil {
		return failf("read: %v", err)
	}
	offset, err := countArg(args, "offset", 1)
	if err != nil {
		return failf("read: %v", err)
	}
	limit, err := countArg(args, "limit", 0)
	if err != nil {
		return failf("read: %v", err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return failf("read: %v", err)
	}
	if !utf8.Valid(data) {
		return failf("read: %s is not UTF-8 text", path)
	}
	text := string(data)
	if _, o := args["offset"]; !o {
		if _, l := args["limit"]; !l {
			return ToolResult{Output: text}
		}
	}
	// A window is the text split on "\n": a file's final newline leaves an empty last piece, so
	// a window that reaches the end keeps that newline, as every published port prints it (C13.11).
	lines := strings.Split(text, "\n")
	if text == "" {
		lines = nil
	}
	start := min(offset-1, len(lines))
	end := len(lines)
	if limit > 0 {
		end = min(start+limit, len(lines))
	}
	return ToolResult{Output: strings.Join(lines[start:end], "\n")}
}

func writeTool() Tool {
	return builtinTool("write",
		"Write content to a file, creating it (and its parent directories) or replacing it.",
		objectSchema(map[string]any{
			"path":    prop("string", "The file to write"),
			"content": prop("string", "The complete new content"),
		}, "path", "content"),
		runWrite)
}

func runWrite(args map[string]any, _ *ToolContext) ToolResult {
	path, err := strArg(args, "path", true)
	if err == nil && path == "" {
		err = errors.New(`"path" is empty`)
	}
	if err != nil {
		return failf("write: %v", err)
	}
	content, err := strArg(args, "content", true)
	if err != nil {
		return failf("write: %v", err)
	}
	if err := writeFileMkdir(path, []byte(content)); err != nil {
		return failf("write: %v", err)
	}
	return ToolResult{Output: fmt.Sprintf("Wrote %d bytes to %s", len(content), path), Metadata: map[string]any{"bytes": len(content)}}
}

// writeFileMkdir writes data, creating missing parent directories; an existing file keeps
// its permissions.
func writeFileMkdir(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

func editTool() Tool {
	return builtinTool("edit",
		"Replace an exact string in a file: one unique occurrence, or every occurrence with replaceAll.",
		objectSchema(map[string]any{
			"path":       prop("string", "The file to edit"),
			"oldString":  prop("string", "The exact text to replace"),
			"newString":  prop("string", "The text to put in its place"),
			"replaceAll": prop("boolean", "Replace every occurrence (default: oldString must occur once)"),
		}, "path", "oldString", "newString"),
		runEdit)
}

func runEdit(args map[string]any, _ *ToolContext) ToolResult {
	path, err := strArg(args, "path", true)
	if err != nil {
		return failf("edit: %v", err)
	}
	oldString, err := strArg(args, "oldString", true)
	if err == nil && oldString == "" {
		err = errors.New(`"oldString" is empty`) // it would match between every two characters
	}
	if err != nil {
		return failf("edit: %v", err)
	}
	newString, err := strArg(args, "newString", true)
	if err != nil {
		return failf("edit: %v", err)
	}
	all, err := boolArg(args, "replaceAll")
	if err != nil {
		return failf("edit: %v", err)
	}
	info, err := os.Stat(path)
	if err != nil {
		return failf("edit: %v", err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return failf("edit: %v", err)
	}
	text := string(data)
	n := strings.Count(text, oldString)
	switch {
	case n == 0:
		return failf("edit: oldString was not found in %s", path)
	case n > 1 && !all:
		return failf("edit: oldString occurs %d times in %s; make it unique or set replaceAll", n, path)
	}
	if !all {
		n = 1
	}
	text = strings.Replace(text, oldString, newString, n)
	if err := os.WriteFile(path, []byte(text), info.Mode().Perm()); err != nil {
		return failf("edit: %v", err)
	}
	word := "replacements" // the readings' text (SPEC.md §10)
	if n == 1 {
		word = "replacement"
	}
	return ToolResult{Output: fmt.Sprintf("Edited %s (%d %s)", path, n, word), Metadata: map[string]any{"replacements": n}}
}
