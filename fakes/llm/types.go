package llm

import (
	"encoding/json"
	"net/http"
	"time"
)

// Reply is one scripted answer: text, tool calls, or both; or an HTTP error.
type Reply struct {
	// Text is the assistant text ("" for none).
	Text string
	// ToolCalls are the tool calls the model makes, in order.
	ToolCalls []ToolCall
	// Status, when neither 0 nor 200, makes the fake answer with this HTTP
	// status and a JSON error body in the request's style; Text, if set,
	// becomes the error message.
	Status int
	// RetryAfter, when set with Status, is sent as the Retry-After header.
	RetryAfter string
	// HeaderLines, set with Status, are sent byte for byte as header lines ("Retry-After:  2  ",
	// "retry-after: 2", a line twice, an empty value): the answer is written raw on the
	// connection, which then closes, since net/http would trim values and fold repeats.
	HeaderLines []string
	// Drop closes the connection without any answer once the body is read: a
	// network failure as the client sees it.
	Drop bool
	// Delay holds the answer back this long (a slow provider); a client that
	// gives up first never gets it.
	Delay time.Duration
	// TextPieces, when set, are the text deltas a streamed answer sends (Text is
	// their concatenation); unset, Text is cut into pieces of the fake's choosing.
	TextPieces []string
	// Interleave makes a streamed openai answer open every tool call first, then
	// send their argument fragments in turns (call 0, call 1, call 0, …), so only
	// the chunks' index says which call a fragment belongs to.
	Interleave bool
	// ReasoningContent, when set, is sent beside content in a non-streamed openai
	// message, as reasoning models' providers do ("reasoning_content").
	ReasoningContent string
	// Thinking, when set, is a thinking block an anthropic answer sends first, with its
	// signature; a stream sends its text as thinking_delta pieces and the signature as one
	// signature_delta, as the API does.
	Thinking *Thinking
	// StopReason, when set, replaces the stop reason an anthropic answer reports
	// ("end_turn" beside tool_use blocks, as some providers send).
	StopReason string
	// Usage, when set, is the token counts this answer reports; nil reports the
	// fixed counts every answer carries (10 prompt, 5 completion).
	Usage *Usage
	// Body, when set, is the whole 200 answer of a non-streamed request, byte for byte:
	// a provider reply the scripted fields cannot say (three tool_use blocks with inputs
	// in a given key order, a refusal, finish_reason "stop" beside tool_calls).
	Body json.RawMessage
	// DataNoSpace makes a streamed answer write its lines as "data:{…}", without the space
	// SSE allows after the colon (and "event:name"), as some servers do.
	DataNoSpace bool
	// RepeatCallIDs makes a streamed openai answer repeat each call's id and type on every
	// fragment of its arguments, as some providers do.
	RepeatCallIDs bool
	// UsageTwice makes a streamed openai answer report its (cumulative) usage on two chunks,
	// the finish_reason chunk and the usage chunk, as some providers do.
	UsageTwice bool
	// CRLF makes a streamed answer end every line with CR LF instead of LF, as the SSE
	// format allows.
	CRLF bool
	// LastOpenedFirst makes a streamed openai answer with Interleave open its tool calls
	// last index first (index 1's id and name before index 0's), then send their argument
	// fragments in turns: only a client that keys each fragment by its index assembles them.
	LastOpenedFirst bool
	// DeltaInputTokens makes a streamed anthropic answer repeat input_tokens in
	// message_delta's usage beside output_tokens, as the current API does (both cumulative).
	DeltaInputTokens bool
}

// Usage is one answer's token counts, in the request's style on the wire
// (prompt_tokens/completion_tokens, or input_tokens/output_tokens).
type Usage struct {
	Prompt, Completion int
	// Total, when not 0, is openai's total_tokens (else Prompt+Completion): a provider that
	// counts reasoning or cached tokens reports a total that is not the sum of the two.
	Total int
}

// Thinking is an anthropic thinking block: its text and its signature.
type Thinking struct {
	Text, Signature string
}

// ToolCall is one tool call in a Reply.
type ToolCall struct {
	// ID is sent as the call's id; empty means generated per route:
	// "call_<n>" on openai, "toolu_<n>" on anthropic.
	ID string
	// Name is the tool name as the client advertised it.
	Name string
	// Args are the call's arguments (nil is sent as {}).
	Args map[string]any
	// RawArguments, when set, is sent as openai's "arguments" exactly (a JSON
	// string that is not JSON, "", or an object instead of a string), as
	// providers in the wild do. A stream sends a raw JSON string's text in pieces,
	// and the JSON text of Args for any other raw value.
	RawArguments json.RawMessage
}

// Request is one recorded LLM request.
type Request struct {
	// Method is the HTTP method ("POST").
	Method string
	// Path is the full URL path, route prefix included.
	Path string
	// Header holds the request headers.
	Header http.Header
	// Raw is the body exactly as received (at most its first 16 MiB).
	Raw []byte
	// Body is Raw decoded by json.Unmarshal into a map; nil if it did not
	// decode to a JSON object.
	Body map[string]any
	// Style is "openai" or "anthropic", from the path.
	Style string
	// Stream is whether the body asked for a stream (body["stream"] == true).
	Stream bool
	// At is when the request arrived, on the fake's own clock (the process's).
	At time.Time
	// GaveUpAfter is, for a reply scripted with a Delay, how long after its arrival the
	// client closed the request without waiting for the answer; 0 when it waited (or when
	// the reply had no delay). The fake's own clock: no round trip through the adapter.
	GaveUpAfter time.Duration
}

// Wire styles, as recorded in Request.Style.
const (
	// StyleOpenAI marks a POST to <prefix>/chat/completions.
	StyleOpenAI = "openai"
	// StyleAnthropic marks a POST to <prefix>/v1/messages.
	StyleAnthropic = "anthropic"
)
