package toolnexus

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// openaiWire speaks POST {base}/chat/completions.
type openaiWire struct{}

func (openaiWire) url(base string) string {
	return strings.TrimRight(base, "/") + "/chat/completions"
}

func (openaiWire) headers(key string) map[string]string {
	return map[string]string{"Authorization": "Bearer " + key}
}

// start opens the transcript; a history already carries its system message.
func (openaiWire) start(system string, history []any, prompt string) []any {
	var msgs []any
	if len(history) > 0 {
		msgs = append(msgs, history...)
	} else if system != "" {
		msgs = append(msgs, map[string]any{"role": "system", "content": system})
	}
	return append(msgs, map[string]any{"role": "user", "content": prompt})
}

func (openaiWire) toolDefs(tk *Toolkit) []any { return tk.ToOpenAI() }

func (openaiWire) body(model, _ string, messages []any, stream bool) map[string]any {
	b := map[string]any{"model": model, "messages": messages}
	if stream {
		b["stream"] = true
		b["stream_options"] = map[string]any{"include_usage": true}
	}
	return b
}

func (openaiWire) addTools(body map[string]any, tools []any) {
	body["tools"] = tools
	body["tool_choice"] = "auto"
}

// openaiUsage is the usage object of a completion or of the last stream chunk.
type openaiUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

func (u *openaiUsage) usage() Usage {
	if u == nil {
		return Usage{}
	}
	total := u.TotalTokens
	if total == 0 {
		total = u.PromptTokens + u.CompletionTokens
	}
	return Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: total}
}

// openaiError is the error object some providers put in a 200 body or chunk.
type openaiError struct {
	Message string `json:"message"`
}

// openaiResponse is a non-streamed chat completion as the loop and Translate read it.
type openaiResponse struct {
	Choices []struct {
		Message struct {
			Content   json.RawMessage `json:"content"`
			ToolCalls []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string          `json:"name"`
					Arguments json.RawMessage `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *openaiUsage `json:"usage"`
	Error *openaiError `json:"error"`
}

func (openaiWire) decode(raw []byte) (reply, error) {
	var resp openaiResponse
	if err := json.Unmarshal(raw, &resp); err != nil {
		return reply{}, fmt.Errorf("toolnexus: decoding chat completion: %w", err)
	}
	if resp.Error != nil {
		return reply{}, fmt.Errorf("toolnexus: LLM error: %s", resp.Error.Message)
	}
	rep := reply{usage: resp.Usage.usage()}
	if len(resp.Choices) == 0 {
		return rep, nil
	}
	msg := resp.Choices[0].Message
	rep.text = jsonText(msg.Content)
	rep.assistant = map[string]any{"role": "assistant", "content": rep.text}
	for _, tc := range msg.ToolCalls {
		rep.calls = append(rep.calls, call{id: tc.ID, name: tc.Function.Name, args: parseArgs(jsonText(tc.Function.Arguments))})
	}
	if len(msg.ToolCalls) > 0 {
		wireCalls := make([]any, len(msg.ToolCalls))
		for i, tc := range msg.ToolCalls {
			wireCalls[i] = openaiToolCall(tc.ID, tc.Function.Name, jsonText(tc.Function.Arguments))
		}
		rep.assistant["tool_calls"] = wireCalls
		// A tool-call turn without text goes back with a null content, in run as in stream
		// (SPEC.md §9, C9.15).
		if rep.text == "" {
			rep.assistant["content"] = nil
		}
	}
	return rep, nil
}

func (openaiWire) decodeStream(r io.Reader, emit func(StreamEvent)) (reply, error) {
	type partial struct{ id, name, args string }
	var (
		text  strings.Builder
		parts = map[int]*partial{}
		order []int // first-seen index order, which is the model's call order
		rep   reply
	)
	err := readSSE(r, func(data string) (bool, error) {
		if data == "[DONE]" {
			return false, nil
		}
		var chunk struct {
			Choices []struct {
				Delta struct {
					Content   string `json:"content"`
					ToolCalls []struct {
						Index    int    `json:"index"`
						ID       string `json:"id"`
						Function struct {
							Name      string `json:"name"`
							Arguments string `json:"arguments"`
						} `json:"function"`
					} `json:"tool_calls"`
				} `json:"delta"`
			} `json:"choices"`
			Usage *openaiUsage `json:"usage"`
			Error *openaiError `json:"error"`
		}
		if json.Unmarshal([]byte(data), &chunk) != nil {
			return true, nil // keep-alives and vendor noise are not fatal
		}
		if chunk.Error != nil {
			return false, fmt.Errorf("toolnexus: LLM stream error: %s", chunk.Error.Message)
		}
		if chunk.Usage != nil {
			rep.usage = chunk.Usage.usage() // the last report is the run's total
			u := chunk.Usage
			rep.raw = map[string]any{"usage": map[string]any{"prompt_tokens": u.PromptTokens, "completion_tokens": u.CompletionTokens, "total_tokens": u.TotalTokens}}
		}
		if len(chunk.Choices) == 0 {
			return true, nil
		}
		d := chunk.Choices[0].Delta
		if d.Content != "" {
			text.WriteString(d.Content)
			emit(StreamEvent{Type: "text", Delta: d.Content})
		}
		for _, tc := range d.ToolCalls {
			p := parts[tc.Index]
			if p == nil {
				p = &partial{}
				parts[tc.Index] = p
				order = append(order, tc.Index)
			}
			if tc.ID != "" {
				p.id = tc.ID
			}
			p.name += tc.Function.Name
			p.args += tc.Function.Arguments
		}
		return true, nil
	})
	if err != nil {
		return reply{}, err
	}
	rep.text = text.String()
	if len(order) == 0 {
		rep.assistant = map[string]any{"role": "assistant", "content": rep.text}
		return rep, nil
	}
	wireCalls := make([]any, len(order))
	for i, idx := range order {
		p := parts[idx]
		wireCalls[i] = openaiToolCall(p.id, p.name, p.args)
		rep.calls = append(rep.calls, call{id: p.id, name: p.name, args: parseArgs(p.args)})
	}
	// A tool-call turn without text goes back with a null content (SPEC.md §9, C9.15).
	var content any
	if rep.text != "" {
		content = rep.text
	}
	rep.assistant = map[string]any{"role": "assistant", "content": content, "tool_calls": wireCalls}
	return rep, nil
}

func (openaiWire) results(calls []call, outs []ToolResult) []any {
	msgs := make([]any, len(calls))
	for i, tc := range calls {
		msgs[i] = map[string]any{"role": "tool", "tool_call_id": tc.id, "content": outs[i].Output}
	}
	return msgs
}

// openaiToolCall is the assistant-side record of a call, arguments kept as the model's JSON text.
func openaiToolCall(id, name, args string) map[string]any {
	return map[string]any{"id": id, "type": "function", "function": map[string]any{"name": name, "arguments": args}}
}

// jsonText reads a JSON string as its value and anything else (an object, say) as its raw text.
func jsonText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// parseArgs decodes tool arguments; models do send broken JSON, and an empty
// object lets the tool report what is missing instead of failing the run. Numbers
// stay json.Number, so a big integer reaches the tool as the model wrote it.
func parseArgs(s string) map[string]any {
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if dec.Decode(&m) != nil || m == nil || dec.More() {
		return map[string]any{}
	}
	return m
}

// readSSE hands fn the payload of each "data:" line until fn stops or the body
// ends. Lines are taken one by one, as the published port does, so servers that
// omit the blank separator still parse.
func readSSE(r io.Reader, fn func(data string) (more bool, err error)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 8<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data:")
		if !ok {
			continue
		}
		more, err := fn(strings.TrimSpace(data))
		if err != nil || !more {
			return err
		}
	}
	return sc.Err()
}
