// Package mcpfake holds the fake MCP servers, built on the official go-sdk:
// one server ("fake-mcp") with tools a, b, c and get.balance, served over
// stdio, streamable HTTP, or the SSE transport only.
//
// The HTTP servers count TCP connections and the stdio server writes its PID
// to a file, so the suite can judge from outside whether a port connected at
// all and whether it closed what it opened.
package mcpfake
