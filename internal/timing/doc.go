// Package timing is the suite's timing policy (SPEC.md §3 "Quick first", "Judged at the
// bound"): the bound an MCP call is judged at, the margin and hang guard around it, the quick
// first attempt of a stall scenario and the waits even a perfect port cannot avoid. What a
// scenario pins it declares in tags (Parse), checked when the features load; what only a
// running step knows (a stalled server, its own timeout) the steps hand in when they run. It
// imports only the standard library.
package timing
