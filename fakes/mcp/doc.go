// Package mcpfake holds the fake MCP servers, built on the official go-sdk: one server
// ("fake-mcp") served over stdio, streamable HTTP, or the SSE transport only. What it lists
// is a catalogue chosen per server (CatalogueDefault: tools a, b, c and get.balance; the
// others hold awkward names, result shapes, schema variants, a paged listing and the stdio
// env report); it can delay its handshake or tools/list, stall in a phase, or (HTTP) answer
// everything 401.
//
// The HTTP servers count TCP connections and record every request's headers, and the stdio
// server writes its PID to a file, so the suite can judge from outside whether a port
// connected at all, what it sent, and whether it closed what it opened.
package mcpfake
