package llm

import (
	"net/http"
	"strconv"

	"github.com/muthuishere/toolnexus-conformance/fakes/internal/httpfake"
)

func anthropicStop(a answer) string {
	if a.stop != "" {
		return a.stop
	}
	if len(a.calls) > 0 {
		return "tool_use"
	}
	return "end_turn"
}

func anthropicID(a answer) string { return "msg_" + strconv.Itoa(a.n) }

// anthropicBlocks is the content array; a reply with neither text nor tool
// calls still gets one (empty) text block, as the real API sends.
func anthropicBlocks(a answer) []map[string]any {
	var blocks []map[string]any
	if a.thinking != nil {
		blocks = append(blocks, map[string]any{"type": "thinking", "thinking": a.thinking.Text, "signature": a.thinking.Signature})
	}
	if a.text != "" || len(a.calls) == 0 {
		blocks = append(blocks, map[string]any{"type": "text", "text": a.text})
	}
	for _, c := range a.calls {
		blocks = append(blocks, map[string]any{"type": "tool_use", "id": c.id, "name": c.name, "input": c.input})
	}
	return blocks
}

// anthropicMessage is the non-streamed message.
func anthropicMessage(a answer) map[string]any {
	return map[string]any{
		"id":            anthropicID(a),
		"type":          "message",
		"role":          "assistant",
		"model":         a.model,
		"content":       anthropicBlocks(a),
		"stop_reason":   anthropicStop(a),
		"stop_sequence": nil,
		"usage":         map[string]any{"input_tokens": a.usage.Prompt, "output_tokens": a.usage.Completion},
	}
}

// streamAnthropic writes the answer as the real API's event sequence:
// message_start, per block content_block_start / _delta (text in pieces,
// tool input as partial JSON in pieces) / _stop, message_delta with the stop
// reason and output tokens, message_stop.
func streamAnthropic(w http.ResponseWriter, a answer) {
	s := httpfake.StartSSE(w)
	s.NoSpace, s.CRLF = a.noSpace, a.crlf
	s.Event("message_start", map[string]any{
		"type": "message_start",
		"message": map[string]any{
			"id":            anthropicID(a),
			"type":          "message",
			"role":          "assistant",
			"model":         a.model,
			"content":       []any{},
			"stop_reason":   nil,
			"stop_sequence": nil,
			"usage":         map[string]any{"input_tokens": a.usage.Prompt, "output_tokens": 1},
		},
	})
	index := 0
	// block sends one content block: its start, each delta ({type, field: value}), its stop.
	block := func(start map[string]any, deltas ...map[string]any) {
		s.Event("content_block_start", map[string]any{"type": "content_block_start", "index": index, "content_block": start})
		for _, d := range deltas {
			s.Event("content_block_delta", map[string]any{"type": "content_block_delta", "index": index, "delta": d})
		}
		s.Event("content_block_stop", map[string]any{"type": "content_block_stop", "index": index})
		index++
	}
	each := func(deltaType, field string, parts []string) []map[string]any {
		out := make([]map[string]any, len(parts))
		for i, p := range parts {
			out[i] = map[string]any{"type": deltaType, field: p}
		}
		return out
	}
	if a.thinking != nil {
		// The start carries empty thinking and signature; the text comes in thinking_delta
		// pieces and the signature in one signature_delta, as the API sends them.
		deltas := each("thinking_delta", "thinking", pieces(a.thinking.Text))
		deltas = append(deltas, map[string]any{"type": "signature_delta", "signature": a.thinking.Signature})
		block(map[string]any{"type": "thinking", "thinking": "", "signature": ""}, deltas...)
	}
	if a.text != "" {
		block(map[string]any{"type": "text", "text": ""}, each("text_delta", "text", a.textPieces())...)
	} else if len(a.calls) == 0 {
		block(map[string]any{"type": "text", "text": ""})
	}
	for _, c := range a.calls {
		block(map[string]any{"type": "tool_use", "id": c.id, "name": c.name, "input": map[string]any{}},
			each("input_json_delta", "partial_json", pieces(c.args))...)
	}
	usage := map[string]any{"output_tokens": a.usage.Completion}
	if a.deltaInput {
		usage["input_tokens"] = a.usage.Prompt
	}
	s.Event("message_delta", map[string]any{
		"type":  "message_delta",
		"delta": map[string]any{"stop_reason": anthropicStop(a), "stop_sequence": nil},
		"usage": usage,
	})
	s.Event("message_stop", map[string]any{"type": "message_stop"})
}

// textPieces are the streamed text deltas: the scripted ones, else pieces of the text.
func (a answer) textPieces() []string {
	if a.pieces != nil {
		return a.pieces
	}
	return pieces(a.text)
}
