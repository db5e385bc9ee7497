package translate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cucumber/godog"

	llmfake "github.com/muthuishere/toolnexus-conformance/fakes/llm"
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/client"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

func registerTranslateSteps(sc *kernel.Steps) {
	// The provider's reply, raw, in the client's style.
	sc.Step(`^the fake LLM replies in the anthropic style with the content (\[.*\]) and the stop reason "([^"]*)"$`, (*World).anthropicReply)
	sc.Step(`^the fake LLM replies in the openai style with the message (\{.*\}) and the finish reason "([^"]*)"$`, (*World).openaiReply)
	sc.Step(`^the fake LLM first fails with (\d+), then replies in the openai style with the message (\{.*\}) and the finish reason "([^"]*)"$`, (*World).failThenOpenAI)
	sc.Step(`^the fake LLM replies in the openai style with the message (\{.*\}), the finish reason "([^"]*)" and the usage (\{.*\})$`, (*World).openaiReplyUsage)
	sc.Step(`^the fake LLM replies in the anthropic style with the content (\[.*\]), the stop reason "([^"]*)" and the usage (\{.*\})$`, (*World).anthropicReplyUsage)

	// The translate itself.
	sc.Step(`^the client translates the request:$`, (*World).translates)
	sc.Step(`^the client translates, with the scenario's toolkit, the request:$`, (*World).translatesWithToolkit)

	// What it returned and what reached the wire.
	sc.Step(`^the translate made (\d+) LLM requests?$`, func(w *World, n int) error { return client.RequestCount(w.A, n) })
	sc.Step(`^the translate result has (\{.*\})$`, (*World).resultHas)
	sc.Step(`^the translate's tool calls are, in order, (.+)$`, (*World).callIDs)
	sc.Step(`^the translate's tool call "([^"]*)" has arguments that parse to (\{.*\})$`, (*World).argsParse)
	sc.Step(`^the translate's tool call "([^"]*)" has exactly the arguments (.+)$`, (*World).argsExactly)
	sc.Step(`^the translate's hooks were, in order, (.+)$`, (*World).hooksInOrder)
	sc.Step(`^no tool ran during the translate$`, (*World).noToolRan)
	sc.Step(`^LLM request (\d+) has (\d+) messages?$`, (*World).messageCount)
	sc.Step(`^LLM request (\d+)'s message (\d+) has the role "([^"]*)" and the text "([^"]*)"$`, (*World).messageText)
	sc.Step(`^LLM request (\d+)'s message (\d+) has the role "([^"]*)" and the text "([^"]*)", in one piece$`, (*World).messageTextWhole)
	sc.Step(`^LLM request (\d+)'s message (\d+) has the role "([^"]*)" and a content block including (\{.*\})$`, (*World).messageBlock)
	sc.Step(`^LLM request (\d+)'s message (\d+) has, as written on the wire, a tool_use block "([^"]*)" whose input is exactly (\{.*\})$`, (*World).toolUseInputWritten)
	sc.Step(`^LLM request (\d+)'s message (\d+) is a user message whose tool_result blocks answer, in order, (.+)$`, (*World).toolResultOrder)
	sc.Step(`^LLM request (\d+)'s message (\d+) holds, for "([^"]*)", the tool result text "([^"]*)"$`, (*World).toolResultText)
	sc.Step(`^no message of LLM request (\d+) has the role (.+)$`, (*World).noRole)
	sc.Step(`^LLM request (\d+)'s "([^"]*)" contains, in order, (.+)$`, (*World).fieldContains)
	sc.Step(`^LLM request (\d+)'s "([^"]*)" is exactly (.+)$`, (*World).fieldIs)
	sc.Step(`^LLM request (\d+) has no "([^"]*)"$`, (*World).fieldAbsent)
	sc.Step(`^LLM requests (\d+) and (\d+) have the same "([^"]*)"$`, (*World).sameField)
}

func (w *World) script(r ...llmfake.Reply) { w.client().Route.Script(r...) }

func (w *World) anthropicReply(content, stop string) error {
	return w.anthropicReplyUsage(content, stop, `{"input_tokens":11,"output_tokens":7}`)
}

// anthropicReplyUsage scripts the raw reply, its content's ⟨…⟩ notation expanded and then
// kept byte for byte (key order, escapes and number spellings are what the provider wrote).
func (w *World) anthropicReplyUsage(content, stop, usage string) error {
	content, err := common.CodePoints(content)
	if err != nil {
		return err
	}
	var blocks []json.RawMessage
	if err := json.Unmarshal([]byte(content), &blocks); err != nil {
		return fmt.Errorf("harness: %s is not a JSON array: %w", content, err)
	}
	if !json.Valid([]byte(usage)) {
		return fmt.Errorf("harness: the usage %s is not JSON", usage)
	}
	body := fmt.Sprintf(`{"id":"msg_t1","type":"message","role":"assistant","model":"fake-model","content":%s,"stop_reason":%q,"stop_sequence":null,"usage":%s}`, content, stop, usage)
	w.script(llmfake.Reply{Body: json.RawMessage(body)})
	return nil
}

func openaiBody(message, finish string) (json.RawMessage, error) {
	return openaiBodyUsage(message, finish, `{"prompt_tokens":11,"completion_tokens":7,"total_tokens":18}`)
}

func openaiBodyUsage(message, finish, usage string) (json.RawMessage, error) {
	message, err := common.CodePoints(message)
	if err != nil {
		return nil, err
	}
	if !json.Valid([]byte(message)) || !json.Valid([]byte(usage)) {
		return nil, fmt.Errorf("harness: %s or its usage %s is not JSON", message, usage)
	}
	return json.RawMessage(fmt.Sprintf(`{"id":"chatcmpl-t1","object":"chat.completion","model":"fake-model","choices":[{"index":0,"message":%s,"finish_reason":%q}],"usage":%s}`, message, finish, usage)), nil
}

func (w *World) openaiReply(message, finish string) error {
	b, err := openaiBody(message, finish)
	if err == nil {
		w.script(llmfake.Reply{Body: b})
	}
	return err
}

func (w *World) openaiReplyUsage(message, finish, usage string) error {
	b, err := openaiBodyUsage(message, finish, usage)
	if err == nil {
		w.script(llmfake.Reply{Body: b})
	}
	return err
}

func (w *World) failThenOpenAI(status int, message, finish string) error {
	b, err := openaiBody(message, finish)
	if err == nil {
		w.script(llmfake.Reply{Status: status}, llmfake.Reply{Body: b})
	}
	return err
}

func (w *World) translates(doc *godog.DocString) error { return w.translate(doc, false) }

func (w *World) translatesWithToolkit(doc *godog.DocString) error { return w.translate(doc, true) }

// translate sends client.translate with the request's keys as written; the result is kept.
func (w *World) translate(doc *godog.DocString, withToolkit bool) error {
	var args map[string]any
	if err := common.StepJSON(doc.Content, &args); err != nil {
		return fmt.Errorf("harness: the translate request is not a JSON object: %w", err)
	}
	if err := client.EnsureClient(w.A); err != nil {
		return err
	}
	if withToolkit {
		if w.TK().Current == "" {
			return fmt.Errorf("harness: the scenario built no toolkit")
		}
		args["toolkit"] = w.TK().Current
	}
	args["client"] = w.client().Client["handle"]
	r, err := w.Call("client.translate", args)
	if err != nil {
		return err
	}
	if r.OK {
		w.tr().results = append(w.tr().results, r.Result)
	}
	return nil
}

func (w *World) last() (map[string]any, error) {
	rs := w.tr().results
	if len(rs) == 0 {
		return nil, fmt.Errorf("harness: no translate returned a result")
	}
	return rs[len(rs)-1], nil
}

func (w *World) resultHas(raw string) error {
	r, err := w.last()
	if err != nil {
		return err
	}
	return common.HasFields("the translate result", raw, r)
}

func (w *World) calls() ([]map[string]any, error) {
	r, err := w.last()
	if err != nil {
		return nil, err
	}
	list, _ := r["toolCalls"].([]any)
	var out []map[string]any
	for _, c := range list {
		m, _ := c.(map[string]any)
		out = append(out, m)
	}
	return out, nil
}

func (w *World) callIDs(list string) error {
	calls, err := w.calls()
	if err != nil {
		return err
	}
	var got []string
	for _, c := range calls {
		got = append(got, fmt.Sprint(c["id"]))
	}
	if want := common.QuotedList(list); strings.Join(got, ",") != strings.Join(want, ",") {
		return fmt.Errorf("the translate's tool calls are %q; want, in order, %q: %s", got, want, common.CompactJSON(calls))
	}
	return nil
}

func (w *World) call(id string) (string, error) {
	calls, err := w.calls()
	if err != nil {
		return "", err
	}
	for _, c := range calls {
		if c["id"] == id {
			s, ok := c["arguments"].(string)
			if !ok {
				return "", fmt.Errorf("the tool call %q's arguments are %s, not a string", id, common.CompactJSON(c["arguments"]))
			}
			return s, nil
		}
	}
	return "", fmt.Errorf("the translate has no tool call %q: %s", id, common.CompactJSON(calls))
}

func (w *World) argsParse(id, raw string) error {
	s, err := w.call(id)
	if err != nil {
		return err
	}
	var got any
	if err := json.Unmarshal([]byte(s), &got); err != nil {
		return fmt.Errorf("the tool call %q's arguments %q are not JSON: %v", id, s, err)
	}
	return common.SameJSON(fmt.Sprintf("the tool call %q's arguments", id), raw, got)
}

func (w *World) argsExactly(id, want string) error {
	want, err := common.CodePoints(want)
	if err != nil {
		return err
	}
	s, err := w.call(id)
	if err == nil && s != want {
		err = fmt.Errorf("the tool call %q's arguments are %q; want exactly %q", id, s, want)
	}
	return err
}

// hooksInOrder lists the LLM and tool hooks the translate called, as name(turn).
func (w *World) hooksInOrder(list string) error {
	var got []string
	for _, r := range w.A.Requests() {
		if r.Op != "client.translate" {
			continue
		}
		for _, c := range r.Slots {
			d := c.Decode()
			switch c.Slot {
			case "llm.beforeLLM", "hooks.afterLLM":
				got = append(got, fmt.Sprintf("%s(%v)", strings.TrimPrefix(strings.TrimPrefix(c.Slot, "llm."), "hooks."), d["turn"]))
			case "hooks.beforeTool", "hooks.afterTool":
				got = append(got, fmt.Sprintf("%s(%v)", strings.TrimPrefix(c.Slot, "hooks."), d["name"]))
			}
		}
	}
	if strings.Join(got, ", ") != list {
		return fmt.Errorf("the translate's hooks were %s; want exactly %s", strings.Join(got, ", "), list)
	}
	return nil
}

// noToolRan: no host tool's execute was called back while a translate was in flight.
func (w *World) noToolRan() error {
	seen := 0
	for _, r := range w.A.Requests() {
		if r.Op != "client.translate" {
			continue
		}
		seen++
		for _, c := range r.Slots {
			if c.Slot == "contract.tool" {
				return fmt.Errorf("a tool ran during the translate: %s", common.CompactJSON(c.Decode()))
			}
		}
	}
	if seen == 0 {
		return fmt.Errorf("harness: no translate was sent")
	}
	return nil
}

func (w *World) message(n, i int) (map[string]any, error) {
	b, err := client.Body(w.A, n)
	if err != nil {
		return nil, err
	}
	msgs, _ := b["messages"].([]any)
	if i < 1 || i > len(msgs) {
		return nil, fmt.Errorf("LLM request %d has %d messages; there is no message %d: %s", n, len(msgs), i, common.ClipString(common.CompactJSON(msgs), 600))
	}
	m, _ := msgs[i-1].(map[string]any)
	return m, nil
}

func (w *World) messageCount(n, want int) error {
	b, err := client.Body(w.A, n)
	if err != nil {
		return err
	}
	msgs, _ := b["messages"].([]any)
	if len(msgs) != want {
		return fmt.Errorf("LLM request %d has %d messages; want %d: %s", n, len(msgs), want, common.ClipString(common.CompactJSON(msgs), 600))
	}
	return nil
}

func (w *World) messageText(n, i int, role, text string) error {
	m, err := w.message(n, i)
	if err != nil {
		return err
	}
	if m["role"] != role || common.ContentText(m["content"]) != text {
		return fmt.Errorf("LLM request %d's message %d is %s; want the role %q and the text %q", n, i, common.CompactJSON(m), role, text)
	}
	return nil
}

// messageTextWhole: the content is the text itself, a string or one text block: parts given
// to the translate were flattened, not passed on as several blocks.
func (w *World) messageTextWhole(n, i int, role, text string) error {
	text, err := common.CodePoints(text)
	if err != nil {
		return err
	}
	m, err := w.message(n, i)
	if err != nil {
		return err
	}
	got, ok := m["content"].(string)
	if blocks, _ := m["content"].([]any); len(blocks) == 1 {
		if b, _ := blocks[0].(map[string]any); b["type"] == "text" {
			got, ok = b["text"].(string)
		}
	}
	if m["role"] != role || !ok || got != text {
		return fmt.Errorf("LLM request %d's message %d is %s; want the role %q and the text %q in one piece (a string or one text block)", n, i, common.CompactJSON(m), role, text)
	}
	return nil
}

// toolUseInputWritten reads the request as the fake received it, numbers as written (the
// decoded bodies hold float64, which would round a big integer the way the bug does).
func (w *World) toolUseInputWritten(n, i int, id, raw string) error {
	reqs := w.client().Route.Requests()
	if n < 1 || n > len(reqs) {
		return fmt.Errorf("the fake LLM received %d requests; there is no request %d", len(reqs), n)
	}
	var body struct {
		Messages []struct {
			Content any `json:"content"`
		} `json:"messages"`
	}
	dec := json.NewDecoder(bytes.NewReader(reqs[n-1].Raw))
	dec.UseNumber()
	if err := dec.Decode(&body); err != nil {
		return fmt.Errorf("LLM request %d is not JSON: %v", n, err)
	}
	if i < 1 || i > len(body.Messages) {
		return fmt.Errorf("LLM request %d has %d messages; there is no message %d", n, len(body.Messages), i)
	}
	blocks, _ := body.Messages[i-1].Content.([]any)
	for _, b := range blocks {
		if blk, _ := b.(map[string]any); blk["type"] == "tool_use" && blk["id"] == id {
			return common.SameJSON(fmt.Sprintf("LLM request %d's tool_use %q input", n, id), raw, blk["input"])
		}
	}
	return fmt.Errorf("LLM request %d's message %d has no tool_use block %q: %s", n, i, id, common.ClipString(common.CompactJSON(blocks), 600))
}

func (w *World) messageBlock(n, i int, role, raw string) error {
	m, err := w.message(n, i)
	if err != nil {
		return err
	}
	var want any
	if err := common.StepJSON(raw, &want); err != nil {
		return fmt.Errorf("harness: %s is not JSON: %w", raw, err)
	}
	if m["role"] == role {
		blocks, _ := m["content"].([]any)
		for _, b := range blocks {
			if common.Includes(want, b) == "" {
				return nil
			}
		}
	}
	return fmt.Errorf("LLM request %d's message %d is %s; want the role %q and a content block including %s", n, i, common.CompactJSON(m), role, raw)
}

func (w *World) toolResultOrder(n, i int, list string) error {
	m, err := w.message(n, i)
	if err != nil {
		return err
	}
	var ids []string
	blocks, _ := m["content"].([]any)
	for _, b := range blocks {
		if blk, _ := b.(map[string]any); blk["type"] == "tool_result" {
			ids = append(ids, fmt.Sprint(blk["tool_use_id"]))
		}
	}
	if want := common.QuotedList(list); m["role"] != "user" || strings.Join(ids, ",") != strings.Join(want, ",") {
		return fmt.Errorf("LLM request %d's message %d is %s; want a user message answering, in order, %q", n, i, common.ClipString(common.CompactJSON(m), 600), want)
	}
	return nil
}

// toolResultText: the tool_result block answering id holds exactly the text (a string or
// text blocks, read as one).
func (w *World) toolResultText(n, i int, id, text string) error {
	text, err := common.CodePoints(text)
	if err != nil {
		return err
	}
	m, err := w.message(n, i)
	if err != nil {
		return err
	}
	blocks, _ := m["content"].([]any)
	for _, b := range blocks {
		if blk, _ := b.(map[string]any); blk["type"] == "tool_result" && blk["tool_use_id"] == id {
			if got := common.ContentText(blk["content"]); got != text {
				return fmt.Errorf("LLM request %d's tool_result for %q holds %q; want exactly %q", n, id, got, text)
			}
			return nil
		}
	}
	return fmt.Errorf("LLM request %d's message %d has no tool_result for %q: %s", n, i, id, common.ClipString(common.CompactJSON(m), 600))
}

func (w *World) noRole(n int, list string) error {
	b, err := client.Body(w.A, n)
	if err != nil {
		return err
	}
	msgs, _ := b["messages"].([]any)
	for _, role := range common.QuotedList(list) {
		for i, m := range msgs {
			if mm, _ := m.(map[string]any); mm["role"] == role {
				return fmt.Errorf("LLM request %d's message %d has the role %q: %s", n, i+1, role, common.CompactJSON(mm))
			}
		}
	}
	return nil
}

// fieldContains: a top-level text field holds each quoted text, in order (the separator
// between them is another scenario's pin).
func (w *World) fieldContains(n int, key, list string) error {
	b, err := client.Body(w.A, n)
	if err != nil {
		return err
	}
	if b[key] == nil {
		return fmt.Errorf("LLM request %d has no %q", n, key)
	}
	text, rest := common.ContentText(b[key]), common.ContentText(b[key])
	for _, want := range common.QuotedList(list) {
		i := strings.Index(rest, want)
		if i < 0 {
			return fmt.Errorf("LLM request %d's %q is %q; want it to hold, in order, %s", n, key, text, list)
		}
		rest = rest[i+len(want):]
	}
	return nil
}

func (w *World) fieldIs(n int, key, raw string) error {
	b, err := client.Body(w.A, n)
	if err != nil {
		return err
	}
	v, ok := b[key]
	if !ok {
		return fmt.Errorf("LLM request %d has no %q; want %s", n, key, raw)
	}
	return common.SameJSON(fmt.Sprintf("LLM request %d's %q", n, key), raw, v)
}

func (w *World) fieldAbsent(n int, key string) error {
	b, err := client.Body(w.A, n)
	if err != nil {
		return err
	}
	if v, ok := b[key]; ok {
		return fmt.Errorf("LLM request %d has %q: %s; want none", n, key, common.CompactJSON(v))
	}
	return nil
}

func (w *World) sameField(n, m int, key string) error {
	a, err := client.Body(w.A, n)
	if err != nil {
		return err
	}
	b, err := client.Body(w.A, m)
	if err != nil {
		return err
	}
	return common.SameJSON(fmt.Sprintf("LLM request %d's %q against request %d's", m, key, n), common.CompactJSON(a[key]), b[key])
}
