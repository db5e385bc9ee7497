package toolnexus

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// TranslateRequest is one OpenAI-shaped chat request for Translate (upstream SPEC §11).
type TranslateRequest struct {
	Messages   []any    // OpenAI messages, verbatim (assistant tool_calls, tool results included)
	Tools      []any    // OpenAI tools, verbatim; sent after the toolkit's declarations
	Toolkit    *Toolkit // declared, never executed
	ToolChoice any      // OpenAI tool_choice; nil sends none
	System     string   // non-empty: replaces every system and developer message
	MaxTokens  int      // 0: the style's default (anthropic 4096, openai no key)
}

// TranslatedToolCall is one tool call the model asked for; Arguments is JSON text.
type TranslatedToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// TranslateResult is the provider's one answer in OpenAI terms.
type TranslateResult struct {
	Text         string               `json:"text"`
	ToolCalls    []TranslatedToolCall `json:"toolCalls"`
	FinishReason string               `json:"finishReason"` // stop | tool_calls | length | content_filter
	Usage        Usage                `json:"usage"`
	Model        string               `json:"model"`
	Raw          map[string]any       `json:"raw,omitempty"`
}

// Translate sends one OpenAI-shaped request to the client's provider and hands back the
// answer in OpenAI shapes (§11). Nothing executes: the tool calls are returned to the caller,
// and no tool hook fires. BeforeLLM and AfterLLM fire once each, as turn 0; retries, request
// params and BodyTransform are the loop's own.
func (c *Client) Translate(ctx context.Context, req TranslateRequest) (TranslateResult, error) {
	if c.err != nil {
		return TranslateResult{}, c.err
	}
	ctx, cancel := c.bound(ctx)
	defer cancel()
	key, err := c.apiKey()
	if err != nil {
		return TranslateResult{}, err
	}
	anth := c.opts.Style == StyleAnthropic
	var messages, tools []any
	var system string
	var choice any
	if anth {
		if messages, system, err = trAnthropicMessages(req.Messages, req.System); err == nil {
			if tools, err = trAnthropicTools(req.Tools); err == nil {
				choice, err = trAnthropicChoice(req.ToolChoice)
			}
		}
	} else {
		messages, err = trOpenAIMessages(req.Messages, req.System)
		tools, choice = req.Tools, req.ToolChoice
	}
	if err != nil {
		return TranslateResult{}, err
	}
	// Toolkit declarations come first (§11), in the style's adapter shape.
	tools = append(c.wire.toolDefs(req.Toolkit), tools...)
	if messages, tools, err = c.beforeLLM(ctx, messages, tools, 0); err != nil {
		return TranslateResult{}, err
	}
	body := c.wire.body(c.opts.Model, system, messages, false)
	if req.MaxTokens > 0 {
		body["max_tokens"] = req.MaxTokens
	}
	if choice != nil && len(tools) == 0 {
		// Providers reject a tool_choice without tools, so it travels only beside them.
		Warnf("[toolnexus] translate: toolChoice dropped: this request has no tools")
	}
	// Not the wire's addTools: the loop's forced tool_choice "auto" is not the caller's.
	payload, err := c.shapeBody(body, tools, func(b map[string]any, t []any) {
		b["tools"] = t
		if choice != nil {
			b["tool_choice"] = choice
		}
	})
	if err != nil {
		return TranslateResult{}, err
	}
	resp, err := c.post(ctx, c.wire.url(c.opts.BaseURL), c.wire.headers(key), payload)
	if err != nil {
		return TranslateResult{}, err
	}
	raw, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		if ctx.Err() != nil {
			return TranslateResult{}, ctx.Err() // the caller's cancel, not the broken read it caused
		}
		return TranslateResult{}, err
	}
	var res TranslateResult
	if anth {
		res, err = decodeAnthropicTranslation(raw)
	} else {
		res, err = decodeOpenAITranslation(raw)
	}
	if err != nil {
		return TranslateResult{}, err
	}
	res.Model = c.opts.Model
	_ = json.Unmarshal(raw, &res.Raw)
	if h := c.opts.Hooks; h != nil && h.AfterLLM != nil {
		if err := h.AfterLLM(ctx, AfterLLMEvent{Response: res.Raw, Model: c.opts.Model, Turn: 0}); err != nil {
			return TranslateResult{}, err
		}
	}
	return res, nil
}

// trOpenAIMessages passes the messages through; only object arguments are turned into the
// JSON string OpenAI requires, and a request.System replaces the system/developer messages.
func trOpenAIMessages(msgs []any, system string) ([]any, error) {
	out := make([]any, 0, len(msgs)+1)
	if system != "" {
		out = append(out, map[string]any{"role": "system", "content": system})
	}
	for i, v := range msgs {
		m := trObject(v)
		if m == nil {
			return nil, fmt.Errorf("toolnexus: translate: message %d is not an object", i)
		}
		if role := m["role"]; system != "" && (role == "system" || role == "developer") {
			continue
		}
		calls, _ := trPlain(m["tool_calls"]).([]any)
		if m["role"] != "assistant" || len(calls) == 0 {
			out = append(out, v)
			continue
		}
		fixed, changed := make([]any, len(calls)), false
		for j, tc := range calls {
			cm := trObject(tc)
			fn := trObject(cm["function"])
			input, err := trCallInput(fn["arguments"])
			if err != nil {
				return nil, fmt.Errorf("toolnexus: translate: message %d, tool call %d: %w", i, j, err)
			}
			fixed[j] = tc
			if _, ok := fn["arguments"].(string); ok || fn["arguments"] == nil {
				continue
			}
			fn2, cm2 := trCopy(fn), trCopy(cm)
			fn2["arguments"] = trMarshal(input)
			cm2["function"] = fn2
			fixed[j], changed = cm2, true
		}
		if changed {
			m2 := trCopy(m)
			m2["tool_calls"] = fixed
			v = m2
		}
		out = append(out, v)
	}
	return out, nil
}

// trAnthropicMessages rebuilds the transcript in content blocks and hoists the system text.
func trAnthropicMessages(msgs []any, override string) ([]any, string, error) {
	var out, results []any
	var sys []string
	// Consecutive tool results become one user turn, as Anthropic requires; a hoisted
	// system message between them does not split it, since it leaves the sequence.
	flush := func() {
		if len(results) > 0 {
			out = append(out, map[string]any{"role": "user", "content": results})
			results = nil
		}
	}
	for i, v := range msgs {
		m := trObject(v)
		if m == nil {
			return nil, "", fmt.Errorf("toolnexus: translate: message %d is not an object", i)
		}
		role, _ := m["role"].(string)
		switch role {
		case "system", "developer":
			if t := trFlatten(m["content"]); t != "" {
				sys = append(sys, t)
			}
		case "tool":
			id, _ := m["tool_call_id"].(string)
			if id == "" {
				return nil, "", fmt.Errorf("toolnexus: translate: message %d is a tool result without tool_call_id", i)
			}
			results = append(results, map[string]any{"type": "tool_result", "tool_use_id": id, "content": trFlatten(m["content"])})
		case "user":
			flush()
			out = append(out, map[string]any{"role": "user", "content": trFlatten(m["content"])})
		case "assistant":
			flush()
			msg, err := trAnthropicAssistant(i, m)
			if err != nil {
				return nil, "", err
			}
			out = append(out, msg)
		default:
			return nil, "", fmt.Errorf("toolnexus: translate: message %d has role %q, which has no anthropic translation", i, role)
		}
	}
	flush()
	system := strings.Join(sys, "\n\n")
	if override != "" {
		system = override
	}
	return out, system, nil
}

// trAnthropicAssistant turns tool_calls into tool_use blocks after the turn's text.
func trAnthropicAssistant(i int, m map[string]any) (map[string]any, error) {
	text := trFlatten(m["content"])
	calls, _ := trPlain(m["tool_calls"]).([]any)
	if len(calls) == 0 {
		return map[string]any{"role": "assistant", "content": text}, nil
	}
	blocks := []any{}
	if text != "" {
		blocks = append(blocks, map[string]any{"type": "text", "text": text})
	}
	for j, tc := range calls {
		cm := trObject(tc)
		fn := trObject(cm["function"])
		input, err := trCallInput(fn["arguments"])
		if err != nil {
			return nil, fmt.Errorf("toolnexus: translate: message %d, tool call %d: %w", i, j, err)
		}
		blocks = append(blocks, map[string]any{"type": "tool_use", "id": cm["id"], "name": fn["name"], "input": input})
	}
	return map[string]any{"role": "assistant", "content": blocks}, nil
}

// trAnthropicTools converts OpenAI function tools to {name, description, input_schema}.
func trAnthropicTools(tools []any) ([]any, error) {
	out := make([]any, 0, len(tools))
	for i, v := range tools {
		m := trObject(v)
		fn := trObject(m["function"])
		name, _ := fn["name"].(string)
		if m["type"] != "function" || name == "" {
			return nil, fmt.Errorf("toolnexus: translate: tools[%d] is not an OpenAI function tool with a name", i)
		}
		schema := fn["parameters"]
		if schema == nil {
			schema = schemaOrEmpty(nil)
		}
		t := map[string]any{"name": name, "input_schema": schema}
		if d, ok := fn["description"]; ok {
			t["description"] = d
		}
		out = append(out, t)
	}
	return out, nil
}

// trAnthropicChoice maps OpenAI's tool_choice; "auto" is Anthropic's default, so no key.
func trAnthropicChoice(v any) (any, error) {
	switch x := trPlain(v).(type) {
	case nil:
		return nil, nil
	case string:
		switch x {
		case "auto":
			return nil, nil
		case "required":
			return map[string]any{"type": "any"}, nil
		case "none":
			return map[string]any{"type": "none"}, nil
		}
	case map[string]any:
		if name, _ := trObject(x["function"])["name"].(string); x["type"] == "function" && name != "" {
			return map[string]any{"type": "tool", "name": name}, nil
		}
	}
	raw, _ := json.Marshal(v)
	return nil, fmt.Errorf("toolnexus: translate: toolChoice %s has no anthropic translation", raw)
}

// decodeOpenAITranslation reads choices[0]; arguments come back as the provider sent them.
func decodeOpenAITranslation(raw []byte) (TranslateResult, error) {
	var resp openaiResponse
	if err := json.Unmarshal(raw, &resp); err != nil {
		return TranslateResult{}, fmt.Errorf("toolnexus: translate: decoding chat completion: %w", err)
	}
	if resp.Error != nil {
		return TranslateResult{}, fmt.Errorf("toolnexus: LLM error: %s", resp.Error.Message)
	}
	res := TranslateResult{ToolCalls: []TranslatedToolCall{}, Usage: resp.Usage.usage()}
	if len(resp.Choices) == 0 {
		res.FinishReason = trFinish("", false)
		return res, nil
	}
	ch := resp.Choices[0]
	var content any
	_ = json.Unmarshal(ch.Message.Content, &content)
	res.Text = trFlatten(content)
	for _, tc := range ch.Message.ToolCalls {
		args := tc.Function.Arguments
		var s string
		text := trArguments(args)
		if json.Unmarshal(args, &s) == nil {
			text = s // a string is returned as given
		}
		res.ToolCalls = append(res.ToolCalls, TranslatedToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: text})
	}
	res.FinishReason = trFinish(ch.FinishReason, len(res.ToolCalls) > 0)
	return res, nil
}

// decodeAnthropicTranslation joins the text blocks and keeps tool_use blocks in order.
func decodeAnthropicTranslation(raw []byte) (TranslateResult, error) {
	var resp struct {
		Content    []anthropicBlock `json:"content"`
		StopReason string           `json:"stop_reason"`
		Usage      anthropicUsage   `json:"usage"`
		Error      *anthropicError  `json:"error"`
	}
	if err := json.Unmarshal(raw, &resp); err != nil {
		return TranslateResult{}, fmt.Errorf("toolnexus: translate: decoding message: %w", err)
	}
	if resp.Error != nil {
		return TranslateResult{}, fmt.Errorf("toolnexus: LLM error: %s: %s", resp.Error.Type, resp.Error.Message)
	}
	u := resp.Usage
	res := TranslateResult{ToolCalls: []TranslatedToolCall{}, Usage: Usage{PromptTokens: u.InputTokens, CompletionTokens: u.OutputTokens, TotalTokens: u.InputTokens + u.OutputTokens}}
	var text strings.Builder
	for _, b := range resp.Content {
		switch b.Type {
		case "text":
			text.WriteString(b.Text)
		case "tool_use":
			res.ToolCalls = append(res.ToolCalls, TranslatedToolCall{ID: b.ID, Name: b.Name, Arguments: trArguments(b.Input)})
		}
	}
	res.Text = text.String()
	res.FinishReason = trFinish(resp.StopReason, len(res.ToolCalls) > 0)
	return res, nil
}

// trFinish folds both styles' stop reasons onto OpenAI's; tool calls always win.
func trFinish(reason string, calls bool) string {
	switch {
	case calls:
		return "tool_calls"
	case reason == "length" || reason == "max_tokens":
		return "length"
	case reason == "content_filter" || reason == "refusal":
		return "content_filter"
	}
	return "stop"
}

// trArguments is the provider's JSON compacted with its key order and characters kept
// (json.Compact never HTML-escapes), so a proxy can forward the bytes; none means {}.
func trArguments(raw json.RawMessage) string {
	var buf bytes.Buffer
	if len(raw) == 0 || string(raw) == "null" || json.Compact(&buf, raw) != nil {
		return "{}"
	}
	return buf.String()
}

// trCallInput reads an assistant call's arguments as an object: a JSON string (empty meaning
// {}) or an object given as is (§11: a port MUST accept both).
func trCallInput(v any) (map[string]any, error) {
	switch x := trPlain(v).(type) {
	case nil:
		return map[string]any{}, nil
	case map[string]any:
		return x, nil
	case string:
		if strings.TrimSpace(x) == "" {
			return map[string]any{}, nil
		}
		var m map[string]any
		dec := json.NewDecoder(strings.NewReader(x))
		dec.UseNumber() // numbers reach the provider as the caller wrote them
		if err := dec.Decode(&m); err != nil || m == nil || dec.More() {
			return nil, fmt.Errorf("arguments %q are not a JSON object", x)
		}
		return m, nil
	}
	return nil, fmt.Errorf("arguments of type %T are neither a JSON string nor an object", v)
}

// trFlatten is a content as text: a string as is, an array of parts as its text parts
// concatenated (other parts dropped), null as "", anything else as its JSON.
func trFlatten(v any) string {
	switch x := trPlain(v).(type) {
	case nil:
		return ""
	case string:
		return x
	case []any:
		var b strings.Builder
		for _, p := range x {
			if m := trObject(p); m != nil && m["type"] == "text" {
				s, _ := m["text"].(string)
				b.WriteString(s)
			}
		}
		return b.String()
	}
	return trMarshal(v)
}

// trPlain gives a caller's value (a struct, a typed slice) the shape a JSON decode has, so
// one reader serves messages built either way.
func trPlain(v any) any {
	switch v.(type) {
	case nil, string, bool, float64, json.Number, map[string]any, []any:
		return v
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return v
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out any
	if dec.Decode(&out) != nil {
		return v
	}
	return out
}

// trObject is v as a JSON object, or nil.
func trObject(v any) map[string]any {
	m, _ := trPlain(v).(map[string]any)
	return m
}

// trCopy is a shallow copy, so a fix-up never edits the caller's message.
func trCopy(m map[string]any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// trMarshal is v's JSON without HTML escaping, for text that reaches a model.
func trMarshal(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return ""
	}
	return strings.TrimSuffix(buf.String(), "\n")
}
