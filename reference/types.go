// Package toolnexus is the conformance harness's Go reference for the ADR 0001
// surface of the toolnexus library. Exported names and signatures follow the
// published Go port so that one adapter builds against either.
package toolnexus

import (
	"context"
	"log"
	"regexp"
)

// JSONSchema is a tool input schema, kept as a free-form map.
type JSONSchema = map[string]any

// ToolSource says where a tool came from.
type ToolSource string

// Tool sources the reference produces.
const (
	SourceMCP    ToolSource = "mcp"
	SourceNative ToolSource = "native"
	SourceHTTP   ToolSource = "http"
	SourceCustom ToolSource = "custom"
	// SourceBuiltin marks the ten default tools of §4A.
	SourceBuiltin ToolSource = "builtin"
)

// ToolResult is what a tool hands back to the model.
type ToolResult struct {
	Output   string         `json:"output"`
	IsError  bool           `json:"isError"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// ToolContext is optional per-call context for Tool.Execute.
type ToolContext struct {
	// Ctx carries cancellation; nil means context.Background().
	Ctx context.Context
	// Timeout overrides the tool's default timeout, in milliseconds.
	Timeout int
	// Answer is set only when a tool is run again after its suspension was resolved
	// (§10); a tool whose resolution is the payload (question) reads Answer.Data.
	Answer *Answer
}

// Tool is the one tool abstraction shared by MCP and host-supplied tools.
type Tool struct {
	Name        string     `json:"name"`
	Description string     `json:"description"`
	InputSchema JSONSchema `json:"inputSchema"`
	Source      ToolSource `json:"source"`
	// Execute runs the tool; ctx may be nil.
	Execute func(args map[string]any, ctx *ToolContext) (ToolResult, error) `json:"-"`
}

// McpStatus is one MCP server's state after a load.
type McpStatus string

// The three server states every port reports.
const (
	StatusConnected McpStatus = "connected"
	StatusDisabled  McpStatus = "disabled"
	StatusFailed    McpStatus = "failed"
)

var sanitizeRe = regexp.MustCompile(`[^a-zA-Z0-9_-]`)

// Sanitize replaces every character outside [a-zA-Z0-9_-] with "_", one per UTF-16 code
// unit, as upstream SPEC §2 writes it: x.replace(/[^a-zA-Z0-9_-]/g, "_").
func Sanitize(value string) string {
	return sanitizeRe.ReplaceAllStringFunc(value, func(ch string) string {
		// One "_" per UTF-16 code unit, as the SPEC's JavaScript regex (no u flag) replaces:
		// a character outside the BMP is two units, so two underscores (C2.4).
		if []rune(ch)[0] > 0xFFFF {
			return "__"
		}
		return "_"
	})
}

// Warnf is the single sink for the library's warnings. It defaults to the
// standard logger (as the published port does) so a host can capture warnings
// with log.SetOutput, or replace this variable outright.
var Warnf = log.Printf
