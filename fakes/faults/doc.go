// Package faults holds misbehaving MCP endpoints for the cancellation and
// timeout scenarios: a server that accepts TCP and never answers, one that
// answers only after a delay, one that refuses streamable HTTP and then hangs
// on its SSE stream, and a port nothing listens on.
//
// Each fault is only worth something if a client really reached it, so each
// counts what it saw; and each must never hold the harness up, so Close
// returns promptly, releasing every hung request.
package faults
