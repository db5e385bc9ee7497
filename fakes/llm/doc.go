// Package llm is the fake LLM: one loopback HTTP server that speaks the
// OpenAI chat-completions and Anthropic messages wire formats, streamed (SSE)
// and not, and records every request it is sent.
//
// Each scenario takes its own Route, whose base URL ("<server>/s/<n>") becomes
// the client's base URL, so scenarios and ports can run in parallel against
// one server without seeing each other's requests or replies. A Route follows
// its script (turn 1 a tool call, turn 2 text, ...) and answers "ok" once the
// script is used up.
//
// The suite judges ports on what the fake recorded, never on what an adapter
// says it sent, so a request is recorded before it is answered.
package llm
