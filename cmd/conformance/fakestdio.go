package main

import mcpfake "github.com/muthuishere/toolnexus-conformance/fakes/mcp"

// cmdFakeStdio serves the fake MCP server on stdin/stdout; ports spawn it as a stdio server.
func cmdFakeStdio(args []string) int { return mcpfake.StdioMain(args) }
