package loop

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/cucumber/godog"

	llmfake "github.com/muthuishere/toolnexus-conformance/fakes/llm"
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/client"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

func registerLoopSteps(sc *kernel.Steps) {
	sc.Step(`^the client's system prompt is "([^"]*)"$`, (*World).systemPrompt)
	sc.Step(`^the client's model is "([^"]*)"$`, (*World).model)
	sc.Step(`^the client's max turns is (\d+)$`, (*World).maxTurns)
	sc.Step(`^the fake LLM calls the tool "([^"]*)" on every turn$`, (*World).alwaysCalls)
	sc.Step(`^the fake LLM calls the tool "([^"]*)" on every turn, saying "([^"]*)"$`, (*World).alwaysCallsSaying)
	sc.Step(`^the fake LLM first calls the tool "([^"]*)" reporting (\d+) prompt and (\d+) completion tokens, then answers "([^"]*)" reporting (\d+) prompt and (\d+) completion tokens$`, (*World).scriptWithUsage)
	sc.Step(`^the fake LLM first calls, at once, (.+?), and then answers "([^"]*)"$`, (*World).callsAtOnce)
	sc.Step(`^the fake LLM first calls the tool "([^"]*)" with the raw openai arguments (.+), and then answers "([^"]*)"$`, (*World).rawArguments)
	sc.Step(`^the fake LLM first calls the tool "([^"]*)" beside the reasoning_content "([^"]*)", and then answers "([^"]*)"$`, (*World).reasoningThenText)
	sc.Step(`^the fake LLM first thinks "([^"]*)" \(signature "([^"]*)"\), says "([^"]*)" and calls the tool "([^"]*)", and then answers "([^"]*)"$`, (*World).thinkingThenText)
	sc.Step(`^the assistant message of LLM request (\d+) is exactly (\{.*\})$`, (*World).assistantMessageIs)
	sc.Step(`^the run result has (\{.*\})$`, (*World).runResultHas)
	sc.Step(`^the system prompt of LLM request (\d+) is exactly:$`, (*World).systemPromptIs)
	sc.Step(`^the tool messages of LLM request (\d+) are exactly (\[.*\])$`, (*World).toolMessagesAre)
	sc.Step(`^the last message of LLM request (\d+) is a user message of the tool_result blocks (.+)$`, (*World).lastToolResults)
	sc.Step(`^every tool_result block of LLM request (\d+) carries "is_error": false$`, (*World).isErrorFalse)
	sc.Step(`^LLM request (\d+) carries the run's tool call (\d+) output exactly$`, (*World).carriesCallOutput)
	sc.Step(`^the client's system prompt is the JSON string (.+)$`, (*World).systemPromptJSON)
	sc.Step(`^the system prompt of LLM request (\d+) is the client's system prompt, a blank line, and then the skills prompt$`, (*World).systemPromptStartsWithCaller)
	sc.Step(`^the fake LLM first calls the tool "([^"]*)", saying "([^"]*)", and then answers "([^"]*)"$`, (*World).callSayingThenText)
	sc.Step(`^the fake LLM first calls the tool "([^"]*)" several times at once, under the ids (.+), and then answers "([^"]*)"$`, (*World).callsUnderIDs)
	sc.Step(`^the fake LLM first calls the tool "([^"]*)" reporting the usage (\{.*\}), then answers "([^"]*)" reporting the usage (\{.*\})$`, (*World).scriptWithTotals)
	sc.Step(`^the fake LLM answers with one anthropic message of the text blocks (.+)$`, (*World).anthropicTextBlocks)
	sc.Step(`^the fake LLM first calls the tool "([^"]*)" with the exact arguments (\{.*\}), and then answers "([^"]*)"$`, (*World).exactArguments)
}

// exactArguments scripts one call whose arguments keep every number's digits as written
// (json.Number: an integer beyond 2^53 is not rounded on its way to the fake's wire), on
// either style; ⟨…⟩ notation is expanded first.
func (w *World) exactArguments(tool, raw, text string) error {
	expanded, err := common.CodePoints(raw)
	if err != nil {
		return err
	}
	var args map[string]any
	dec := json.NewDecoder(strings.NewReader(expanded))
	dec.UseNumber()
	if err := dec.Decode(&args); err != nil {
		return fmt.Errorf("harness: the arguments %s are not a JSON object: %w", raw, err)
	}
	w.client().Route.Script(llmfake.Reply{ToolCalls: []llmfake.ToolCall{{Name: tool, Args: args}}}, llmfake.Reply{Text: text})
	return nil
}

// systemPromptJSON sets the caller's system prompt to a JSON string's value (whitespace and
// ⟨edge:…⟩ values a quoted step argument cannot carry).
func (w *World) systemPromptJSON(raw string) error {
	var s string
	if err := common.StepJSON(raw, &s); err != nil {
		return fmt.Errorf("harness: %s is not a JSON string: %w", raw, err)
	}
	return kernel.SetOption(w.A, "client.create", "systemPrompt", s)
}

// systemPromptStartsWithCaller: the system prompt is the caller's, byte for byte, "\n\n",
// then a non-empty rest (the skills prompt, which other scenarios compare).
func (w *World) systemPromptStartsWithCaller(n int) error {
	caller, _ := w.client().Sent["systemPrompt"].(string)
	if caller == "" {
		return fmt.Errorf("harness: the scenario set no system prompt")
	}
	body, err := client.Body(w.A, n)
	if err != nil {
		return err
	}
	got := body["system"]
	if msgs, ok := body["messages"].([]any); ok && got == nil && len(msgs) > 0 {
		if m, _ := msgs[0].(map[string]any); m["role"] == "system" {
			got = m["content"]
		}
	}
	text, _ := got.(string)
	if !strings.HasPrefix(text, caller+"\n\n") || len(text) == len(caller)+2 {
		return fmt.Errorf("LLM request %d's system prompt %s does not start with the caller's %s, byte for byte, then a blank line and the skills prompt", n, common.CompactJSON(got), common.CompactJSON(caller))
	}
	return nil
}

func (w *World) callSayingThenText(tool, said, text string) error {
	said, err := common.CodePoints(said) // ⟨edge:…⟩ values a quoted argument cannot carry
	if err != nil {
		return err
	}
	w.client().Route.Script(llmfake.Reply{Text: said, ToolCalls: []llmfake.ToolCall{{Name: tool}}}, llmfake.Reply{Text: text})
	return nil
}

// callsUnderIDs scripts one turn calling tool once per id (`"call_b", "call_a"`), in that order.
func (w *World) callsUnderIDs(tool, ids, text string) error {
	var calls []llmfake.ToolCall
	for _, id := range common.QuotedList(ids) {
		calls = append(calls, llmfake.ToolCall{ID: id, Name: tool})
	}
	if len(calls) < 2 {
		return fmt.Errorf("harness: %s names fewer than two ids", ids)
	}
	w.client().Route.Script(llmfake.Reply{ToolCalls: calls}, llmfake.Reply{Text: text})
	return nil
}

// usageOf reads {"prompt": n, "completion": n, "total": n} (total optional: the sum).
func usageOf(raw string) (*llmfake.Usage, error) {
	var u struct{ Prompt, Completion, Total int }
	if err := common.StepJSON(raw, &u); err != nil {
		return nil, fmt.Errorf("harness: %s is not a usage object: %w", raw, err)
	}
	return &llmfake.Usage{Prompt: u.Prompt, Completion: u.Completion, Total: u.Total}, nil
}

func (w *World) scriptWithTotals(tool, u1, text, u2 string) error {
	first, err := usageOf(u1)
	if err != nil {
		return err
	}
	second, err := usageOf(u2)
	if err != nil {
		return err
	}
	w.client().Route.Script(
		llmfake.Reply{ToolCalls: []llmfake.ToolCall{{Name: tool}}, Usage: first},
		llmfake.Reply{Text: text, Usage: second},
	)
	return nil
}

// anthropicTextBlocks scripts one non-streamed anthropic answer whose content is the text
// blocks listed (`"a", "b"`), in order, after a thinking block: a provider that splits its
// answer into several text blocks (citations, server tools do).
func (w *World) anthropicTextBlocks(list string) error {
	texts := common.QuotedList(list)
	if len(texts) < 2 {
		return fmt.Errorf("harness: %s lists fewer than two text blocks", list)
	}
	blocks := []any{map[string]any{"type": "thinking", "thinking": "t", "signature": "sig"}}
	for _, t := range texts {
		blocks = append(blocks, map[string]any{"type": "text", "text": t})
	}
	body, err := json.Marshal(map[string]any{
		"id": "msg_1", "type": "message", "role": "assistant", "model": "fake-model", "content": blocks,
		"stop_reason": "end_turn", "stop_sequence": nil, "usage": map[string]any{"input_tokens": 10, "output_tokens": 5},
	})
	if err != nil {
		return err
	}
	w.client().Route.Script(llmfake.Reply{Body: body})
	return nil
}

func (w *World) systemPrompt(s string) error {
	return kernel.SetOption(w.A, "client.create", "systemPrompt", s)
}
func (w *World) model(m string) error { return kernel.SetOption(w.A, "client.create", "model", m) }
func (w *World) maxTurns(n int) error { return kernel.SetOption(w.A, "client.create", "maxTurns", n) }

func (w *World) alwaysCalls(tool string) error { return w.alwaysCallsSaying(tool, "") }

func (w *World) alwaysCallsSaying(tool, text string) error {
	w.client().Route.Always(llmfake.Reply{Text: text, ToolCalls: []llmfake.ToolCall{{Name: tool}}})
	return nil
}

func (w *World) scriptWithUsage(tool string, p1, c1 int, text string, p2, c2 int) error {
	w.client().Route.Script(
		llmfake.Reply{ToolCalls: []llmfake.ToolCall{{Name: tool}}, Usage: &llmfake.Usage{Prompt: p1, Completion: c1}},
		llmfake.Reply{Text: text, Usage: &llmfake.Usage{Prompt: p2, Completion: c2}},
	)
	return nil
}

// callsAtOnce scripts one turn of several calls: `the tool "a" with {…}` parts joined by
// ", " and " and ".
func (w *World) callsAtOnce(list, text string) error {
	var calls []llmfake.ToolCall
	for _, part := range strings.Split(strings.ReplaceAll(list, " and the tool ", ", the tool "), ", the tool ") {
		part = strings.TrimPrefix(part, "the tool ")
		name, rest, ok := strings.Cut(strings.TrimPrefix(part, `"`), `"`)
		if !ok {
			return fmt.Errorf("harness: %q is not `the tool \"name\" with {…}`", part)
		}
		args := map[string]any{}
		if raw := strings.TrimPrefix(strings.TrimSpace(rest), "with "); strings.TrimSpace(rest) != "" {
			if err := common.StepJSON(raw, &args); err != nil {
				return fmt.Errorf("harness: the arguments of %q, %s, are not a JSON object: %w", name, raw, err)
			}
		}
		calls = append(calls, llmfake.ToolCall{Name: name, Args: args})
	}
	w.client().Route.Script(llmfake.Reply{ToolCalls: calls}, llmfake.Reply{Text: text})
	return nil
}

// rawArguments scripts a call whose openai arguments are the given JSON value exactly
// (its ⟨…⟩ notation first expanded, so an edge value's digits reach the wire as written).
func (w *World) rawArguments(tool, raw, text string) error {
	raw, err := common.CodePoints(raw)
	if err != nil {
		return err
	}
	if !json.Valid([]byte(raw)) {
		return fmt.Errorf("harness: %s is not a JSON value", raw)
	}
	w.client().Route.Script(llmfake.Reply{ToolCalls: []llmfake.ToolCall{{Name: tool, RawArguments: json.RawMessage(raw)}}}, llmfake.Reply{Text: text})
	return nil
}

func (w *World) reasoningThenText(tool, reasoning, text string) error {
	w.client().Route.Script(llmfake.Reply{ToolCalls: []llmfake.ToolCall{{Name: tool}}, ReasoningContent: reasoning}, llmfake.Reply{Text: text})
	return nil
}

func (w *World) thinkingThenText(thought, signature, said, tool, text string) error {
	var err error
	if thought, err = common.CodePoints(thought); err != nil { // the thought may be ⟨edge:…⟩
		return err
	}
	w.client().Route.Script(
		llmfake.Reply{Text: said, ToolCalls: []llmfake.ToolCall{{Name: tool}}, Thinking: &llmfake.Thinking{Text: thought, Signature: signature}},
		llmfake.Reply{Text: text},
	)
	return nil
}

// assistantMessageIs compares, exactly, the one assistant message LLM request n carries.
func (w *World) assistantMessageIs(n int, raw string) error {
	msgs, err := w.messages(n)
	if err != nil {
		return err
	}
	var found []any
	for _, m := range msgs {
		if mm, _ := m.(map[string]any); mm["role"] == "assistant" {
			found = append(found, mm)
		}
	}
	if len(found) != 1 {
		return fmt.Errorf("LLM request %d carries %d assistant messages; want one: %s", n, len(found), common.CompactJSON(msgs))
	}
	return common.SameJSON(fmt.Sprintf("the assistant message of LLM request %d", n), raw, found[0])
}

// runResultHas compares the named fields of the run result, each exactly.
func (w *World) runResultHas(raw string) error {
	r, err := client.LastResult(w.A)
	if err != nil {
		return err
	}
	return common.HasFields("the run result", raw, r)
}

// systemPromptIs reads the system prompt where the style puts it: openai's first message
// with role system, anthropic's top-level system string.
func (w *World) systemPromptIs(n int, doc *godog.DocString) error {
	body, err := client.Body(w.A, n)
	if err != nil {
		return err
	}
	var got any
	where := "the top-level system"
	if msgs, ok := body["messages"].([]any); ok && body["system"] == nil {
		where = "the first message"
		if len(msgs) > 0 {
			if m, _ := msgs[0].(map[string]any); m["role"] == "system" {
				got = m["content"]
			}
		}
	} else {
		got = body["system"]
	}
	if got != doc.Content {
		return fmt.Errorf("LLM request %d's system prompt (%s) differs byte for byte:\n got %s\nwant %s", n, where, common.CompactJSON(got), common.CompactJSON(doc.Content))
	}
	return nil
}

func (w *World) messages(n int) ([]any, error) {
	body, err := client.Body(w.A, n)
	if err != nil {
		return nil, err
	}
	msgs, _ := body["messages"].([]any)
	if len(msgs) == 0 {
		return nil, fmt.Errorf("LLM request %d carries no messages", n)
	}
	return msgs, nil
}

// toolMessagesAre compares, exactly, every openai tool message of request n.
func (w *World) toolMessagesAre(n int, raw string) error {
	msgs, err := w.messages(n)
	if err != nil {
		return err
	}
	got := []any{}
	for _, m := range msgs {
		if mm, _ := m.(map[string]any); mm["role"] == "tool" {
			got = append(got, mm)
		}
	}
	return common.SameJSON(fmt.Sprintf("the tool messages of LLM request %d", n), raw, got)
}

func (w *World) lastMessage(n int) (any, error) {
	msgs, err := w.messages(n)
	if err != nil {
		return nil, err
	}
	return msgs[len(msgs)-1], nil
}

// blockRe is one expected block: a tool_use id and the quoted text its content carries.
var blockRe = regexp.MustCompile(`^(\S+) "([^"]*)"$`)

// lastToolResults checks the last message is a user message whose content is exactly the
// tool_result blocks listed (`toolu_1 "out", toolu_2 "out"`), in that order: each one's
// tool_use_id, and its content's text, a string or text blocks (Anthropic allows both).
func (w *World) lastToolResults(n int, list string) error {
	m, err := w.lastMessage(n)
	if err != nil {
		return err
	}
	msg, _ := m.(map[string]any)
	blocks, _ := msg["content"].([]any)
	want := strings.Split(list, ", ")
	if msg["role"] != "user" || len(blocks) != len(want) {
		return fmt.Errorf("the last message of LLM request %d is %s; want a user message of %d tool_result blocks", n, common.CompactJSON(m), len(want))
	}
	for i, spec := range want {
		p := blockRe.FindStringSubmatch(spec)
		if p == nil {
			return fmt.Errorf("harness: %q is not `<tool_use_id> \"<text>\"`", spec)
		}
		b, _ := blocks[i].(map[string]any)
		if b["type"] != "tool_result" || b["tool_use_id"] != p[1] || common.ContentText(b["content"]) != p[2] {
			return fmt.Errorf("block %d of the last message of LLM request %d is %s; want tool_result %s carrying %q", i+1, n, common.CompactJSON(b), p[1], p[2])
		}
	}
	return nil
}

func (w *World) isErrorFalse(n int) error {
	m, err := w.lastMessage(n)
	if err != nil {
		return err
	}
	msg, _ := m.(map[string]any)
	blocks, _ := msg["content"].([]any)
	for i, b := range blocks {
		if bb, _ := b.(map[string]any); bb["type"] == "tool_result" && bb["is_error"] != false {
			return fmt.Errorf("tool_result block %d of LLM request %d has is_error %s; want false", i+1, n, common.CompactJSON(bb["is_error"]))
		}
	}
	return nil
}

// carriesCallOutput: the k-th tool result the request carries (an openai tool message, an
// anthropic tool_result block) is, as text, exactly the output RunResult records for call k.
func (w *World) carriesCallOutput(n, k int) error {
	rs := w.client().Results
	if len(rs) == 0 {
		return fmt.Errorf("harness: no run returned a result")
	}
	calls, _ := rs[len(rs)-1]["calls"].([]any)
	if k < 1 || k > len(calls) {
		return fmt.Errorf("the run result lists %d tool calls; there is no call %d", len(calls), k)
	}
	want, _ := calls[k-1].(map[string]any)["output"].(string)
	bodies, err := client.Bodies(w.A)
	if err != nil {
		return err
	}
	if n < 1 || n > len(bodies) {
		return fmt.Errorf("the fake LLM got %d requests; there is no LLM request %d", len(bodies), n)
	}
	var results []string
	msgs, _ := bodies[n-1]["messages"].([]any)
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		if mm["role"] == "tool" {
			results = append(results, common.ContentText(mm["content"]))
		}
		blocks, _ := mm["content"].([]any)
		for _, b := range blocks {
			if bb, _ := b.(map[string]any); bb["type"] == "tool_result" {
				results = append(results, common.ContentText(bb["content"]))
			}
		}
	}
	if k > len(results) {
		return fmt.Errorf("LLM request %d carries %d tool results; there is no result %d", n, len(results), k)
	}
	if results[k-1] != want {
		return fmt.Errorf("LLM request %d feeds back %q for call %d; RunResult records the output %q", n, results[k-1], k, want)
	}
	return nil
}
