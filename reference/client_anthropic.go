package toolnexus

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// anthropicWire speaks POST {base}/v1/messages.
type anthropicWire struct{}

// anthropicMaxTokens is the default the API requires; RequestParams may override it.
const anthropicMaxTokens = 4096

func (anthropicWire) url(base string) string {
	base = strings.TrimRight(base, "/")
	if strings.HasSuffix(base, "/v1") {
		return base + "/messages"
	}
	return base + "/v1/messages"
}

func (anthropicWire) headers(key string) map[string]string {
	return map[string]string{"x-api-key": key, "anthropic-version": "2023-06-01"}
}

// start opens the transcript; the system prompt travels as a body key instead.
func (anthropicWire) start(_ string, history []any, prompt string) []any {
	msgs := append([]any(nil), history...)
	return append(msgs, map[string]any{"role": "user", "content": prompt})
}

func (anthropicWire) toolDefs(tk *Toolkit) []any { return tk.ToAnthropic() }

func (anthropicWire) body(model, system string, messages []any, stream bool) map[string]any {
	b := map[string]any{"model": model, "max_tokens": anthropicMaxTokens, "messages": messages}
	if system != "" {
		b["system"] = system
	}
	if stream {
		b["stream"] = true
	}
	return b
}

func (anthropicWire) addTools(body map[string]any, tools []any) { body["tools"] = tools }

// anthropicUsage is the usage object of a message or of a stream event.
type anthropicUsage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

// anthropicBlock is one content block, whole or as announced by content_block_start.
type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	Thinking  string          `json:"thinking"`
	Signature string          `json:"signature"`
}

// anthropicError is the error object of an error body or an "error" stream event.
type anthropicError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

func (anthropicWire) decode(raw []byte) (reply, error) {
	var resp struct {
		Content []anthropicBlock `json:"content"`
		Usage   anthropicUsage   `json:"usage"`
		Error   *anthropicError  `json:"error"`
	}
	if err := json.Unmarshal(raw, &resp); err != nil {
		return reply{}, fmt.Errorf("toolnexus: decoding message: %w", err)
	}
	if resp.Error != nil {
		return reply{}, fmt.Errorf("toolnexus: LLM error: %s: %s", resp.Error.Type, resp.Error.Message)
	}
	rep := anthropicReply(resp.Content)
	rep.usage = Usage{PromptTokens: resp.Usage.InputTokens, CompletionTokens: resp.Usage.OutputTokens, TotalTokens: resp.Usage.InputTokens + resp.Usage.OutputTokens}
	return rep, nil
}

func (anthropicWire) decodeStream(r io.Reader, emit func(StreamEvent)) (reply, error) {
	type partial struct {
		block anthropicBlock
		json  strings.Builder
	}
	var (
		parts = map[int]*partial{}
		order []int
		in    int
		out   int
	)
	err := readSSE(r, func(data string) (bool, error) {
		var ev struct {
			Type    string `json:"type"`
			Index   int    `json:"index"`
			Message struct {
				Usage anthropicUsage `json:"usage"`
			} `json:"message"`
			ContentBlock anthropicBlock `json:"content_block"`
			Delta        struct {
				Type        string `json:"type"`
				Text        string `json:"text"`
				PartialJSON string `json:"partial_json"`
				Thinking    string `json:"thinking"`
				Signature   string `json:"signature"`
			} `json:"delta"`
			Usage *anthropicUsage `json:"usage"`
			Error *anthropicError `json:"error"`
		}
		if json.Unmarshal([]byte(data), &ev) != nil {
			return true, nil
		}
		switch ev.Type {
		case "message_start":
			in, out = ev.Message.Usage.InputTokens, ev.Message.Usage.OutputTokens
		case "content_block_start":
			if parts[ev.Index] == nil {
				order = append(order, ev.Index)
			}
			parts[ev.Index] = &partial{block: ev.ContentBlock}
			if ev.ContentBlock.Text != "" {
				emit(StreamEvent{Type: "text", Delta: ev.ContentBlock.Text})
			}
		case "content_block_delta":
			p := parts[ev.Index]
			if p == nil {
				return true, nil
			}
			switch ev.Delta.Type {
			case "text_delta":
				p.block.Text += ev.Delta.Text
				emit(StreamEvent{Type: "text", Delta: ev.Delta.Text})
			case "input_json_delta":
				p.json.WriteString(ev.Delta.PartialJSON)
			case "thinking_delta":
				// Thinking is kept for the echo (C9.16's pin), never a text event.
				p.block.Thinking += ev.Delta.Thinking
			case "signature_delta":
				p.block.Signature += ev.Delta.Signature
			}
		case "message_delta":
			// output_tokens here is the running total for the message, not an increment.
			if ev.Usage != nil {
				out = ev.Usage.OutputTokens
				if ev.Usage.InputTokens > 0 {
					in = ev.Usage.InputTokens
				}
			}
		case "message_stop":
			return false, nil
		case "error":
			if ev.Error != nil {
				return false, fmt.Errorf("toolnexus: LLM stream error: %s: %s", ev.Error.Type, ev.Error.Message)
			}
			return false, fmt.Errorf("toolnexus: LLM stream error: %s", data)
		}
		return true, nil
	})
	if err != nil {
		return reply{}, err
	}
	blocks := make([]anthropicBlock, 0, len(order))
	for _, idx := range order {
		p := parts[idx]
		if p.block.Type == "tool_use" && p.json.Len() > 0 {
			// Deltas carry the whole input; the start event's input is a placeholder.
			p.block.Input = json.RawMessage(p.json.String())
		}
		blocks = append(blocks, p.block)
	}
	rep := anthropicReply(blocks)
	rep.usage = Usage{PromptTokens: in, CompletionTokens: out, TotalTokens: in + out}
	rep.raw = map[string]any{"usage": map[string]any{"input_tokens": in, "output_tokens": out}}
	return rep, nil
}

// anthropicReply turns content blocks into the assistant message and the calls;
// text and tool_use are the only block types sent back.
func anthropicReply(blocks []anthropicBlock) reply {
	var rep reply
	var text strings.Builder
	content := []any{}
	for _, b := range blocks {
		switch b.Type {
		case "text":
			text.WriteString(b.Text)
			content = append(content, map[string]any{"type": "text", "text": b.Text})
		case "thinking":
			// Echoed unchanged, signature included: Anthropic rejects a tool turn whose
			// thinking blocks were altered or dropped (C9.16's pin).
			content = append(content, map[string]any{"type": "thinking", "thinking": b.Thinking, "signature": b.Signature})
		case "tool_use":
			// Parsed twice so the tool can never edit the transcript through its args.
			content = append(content, map[string]any{"type": "tool_use", "id": b.ID, "name": b.Name, "input": parseArgs(string(b.Input))})
			rep.calls = append(rep.calls, call{id: b.ID, name: b.Name, args: parseArgs(string(b.Input))})
		}
	}
	rep.text = text.String()
	rep.assistant = map[string]any{"role": "assistant", "content": content}
	return rep
}

func (anthropicWire) results(calls []call, outs []ToolResult) []any {
	blocks := make([]any, len(calls))
	for i, tc := range calls {
		blocks[i] = map[string]any{"type": "tool_result", "tool_use_id": tc.id, "content": outs[i].Output, "is_error": outs[i].IsError}
	}
	return []any{map[string]any{"role": "user", "content": blocks}}
}
