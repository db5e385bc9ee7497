package llm

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/muthuishere/toolnexus-conformance/fakes/internal/httpfake"
)

// Token counts an answer reports unless its Reply sets Usage; clients only need them present.
const (
	promptTokens     = 10
	completionTokens = 5
)

func openAIFinish(a answer) string {
	if len(a.calls) > 0 {
		return "tool_calls"
	}
	return "stop"
}

func openAIUsage(a answer) map[string]any {
	return map[string]any{
		"prompt_tokens":     a.usage.Prompt,
		"completion_tokens": a.usage.Completion,
		"total_tokens":      a.usage.total(),
	}
}

// total is openai's total_tokens: the scripted one, else the sum.
func (u Usage) total() int {
	if u.Total != 0 {
		return u.Total
	}
	return u.Prompt + u.Completion
}

// openAIMessage is the non-streamed chat.completion.
func openAIMessage(a answer) map[string]any {
	msg := map[string]any{"role": "assistant", "content": a.text}
	if a.reasoning != "" {
		msg["reasoning_content"] = a.reasoning
	}
	if len(a.calls) > 0 {
		if a.text == "" {
			msg["content"] = nil // what the real API sends beside tool calls
		}
		var calls []any
		for _, c := range a.calls {
			calls = append(calls, map[string]any{
				"id":       c.id,
				"type":     "function",
				"function": map[string]any{"name": c.name, "arguments": c.arguments()},
			})
		}
		msg["tool_calls"] = calls
	}
	return map[string]any{
		"id":      openAIID(a),
		"object":  "chat.completion",
		"created": a.created,
		"model":   a.model,
		"choices": []any{map[string]any{
			"index":         0,
			"message":       msg,
			"finish_reason": openAIFinish(a),
		}},
		"usage": openAIUsage(a),
	}
}

func openAIID(a answer) string { return "chatcmpl-" + strconv.Itoa(a.n) }

// streamOpenAI writes the answer as chat.completion.chunk events the way the
// real API does: a role delta, content in pieces, each tool call opened with
// its id and name and then its arguments in pieces, a finish_reason chunk, a
// usage chunk with no choices (always sent, as with include_usage), [DONE].
func streamOpenAI(w http.ResponseWriter, a answer) {
	s := httpfake.StartSSE(w)
	s.NoSpace, s.CRLF = a.noSpace, a.crlf
	chunk := func(choices []any) map[string]any {
		return map[string]any{
			"id":      openAIID(a),
			"object":  "chat.completion.chunk",
			"created": a.created,
			"model":   a.model,
			"choices": choices,
		}
	}
	delta := func(d map[string]any) {
		s.Event("", chunk([]any{map[string]any{"index": 0, "delta": d, "finish_reason": nil}}))
	}

	first := map[string]any{"role": "assistant", "content": ""}
	if a.text == "" && len(a.calls) > 0 {
		first["content"] = nil
	}
	delta(first)
	if a.text != "" {
		for _, p := range a.textPieces() {
			delta(map[string]any{"content": p})
		}
	}
	open := func(i int, c call) {
		delta(map[string]any{"tool_calls": []any{map[string]any{
			"index":    i,
			"id":       c.id,
			"type":     "function",
			"function": map[string]any{"name": c.name, "arguments": ""},
		}}})
	}
	fragment := func(i int, p string) {
		tc := map[string]any{"index": i, "function": map[string]any{"arguments": p}}
		if a.repeatIDs {
			tc["id"], tc["type"] = a.calls[i].id, "function"
		}
		delta(map[string]any{"tool_calls": []any{tc}})
	}
	if a.interleave {
		frags := make([][]string, len(a.calls))
		for i, c := range a.calls {
			frags[i] = pieces(c.streamedArguments())
		}
		for k := range a.calls {
			i := k
			if a.lastFirst {
				i = len(a.calls) - 1 - k
			}
			open(i, a.calls[i])
		}
		for k := 0; ; k++ {
			sent := false
			for i := range frags {
				if k < len(frags[i]) {
					fragment(i, frags[i][k])
					sent = true
				}
			}
			if !sent {
				break
			}
		}
	} else {
		for i, c := range a.calls {
			open(i, c)
			for _, p := range pieces(c.streamedArguments()) {
				fragment(i, p)
			}
		}
	}
	finish := chunk([]any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": openAIFinish(a)}})
	if a.usageTwice {
		finish["usage"] = openAIUsage(a)
	}
	s.Event("", finish)
	usage := chunk([]any{})
	usage["usage"] = openAIUsage(a)
	s.Event("", usage)
	s.Data("", []byte("[DONE]"))
}

// streamedArguments is the text a stream sends in pieces: a scripted raw value that is a JSON
// string, unquoted (its spacing and key order kept); anything else a stream cannot carry as
// text, so the JSON text of the arguments.
func (c call) streamedArguments() string {
	var text string
	if c.raw != nil && json.Unmarshal(c.raw, &text) == nil {
		return text
	}
	return c.args
}

// arguments is openai's "arguments" value: the scripted raw value, else the JSON text.
func (c call) arguments() any {
	if c.raw != nil {
		return c.raw
	}
	return c.args
}
