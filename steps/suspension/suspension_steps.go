package suspension

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/client"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
	"github.com/muthuishere/toolnexus-conformance/steps/hooks"
)

func registerSuspensionSteps(sc *kernel.Steps) {
	// The scenario's suspending tools, waitFor and guard.
	sc.Step(`^the tool "([^"]*)" suspends with the request (\{.*\}) and the output "([^"]*)"$`, (*World).suspends)
	sc.Step(`^the tool "([^"]*)" takes (\d+) ms to suspend$`, (*World).slow)
	sc.Step(`^once resumed, the tool "([^"]*)" suspends again$`, (*World).suspendsAgain)
	sc.Step(`^once resumed, the tool "([^"]*)" suspends again, asking "([^"]*)"$`, (*World).suspendsAgainAsking)
	sc.Step(`^once resumed, the tool "([^"]*)" answers the error "([^"]*)"$`, (*World).resumesWithError)
	sc.Step(`^a toolkit with the suspending tools? (.+)$`, (*World).toolkit)
	sc.Step(`^a toolkit of the options the scenario set$`, (*World).optionsToolkit)
	sc.Step(`^the client's waitFor answers (\{.*\})$`, (*World).waitForAnswers)
	sc.Step(`^the beforeTool hook suspends "([^"]*)" with the request (\{.*\})$`, (*World).guard)

	// What waitFor and the tools saw.
	sc.Step(`^waitFor was never called$`, func(w *World) error { return w.waitForCalls(0) })
	sc.Step(`^waitFor was called (\d+) times?$`, (*World).waitForCalls)
	sc.Step(`^waitFor was called with exactly the request of "([^"]*)"$`, (*World).waitForSaw)
	sc.Step(`^waitFor was called once for each request of (.+)$`, (*World).waitForEach)
	sc.Step(`^the tool "([^"]*)" ran (\d+) times?$`, (*World).ran)
	sc.Step(`^the tool "([^"]*)" ran again with the first run's arguments and the answer (\{.*\})$`, (*World).ranAgain)
	sc.Step(`^the tool "([^"]*)" first ran with the arguments (\{.*\})$`, (*World).firstRanWith)

	// What the run returned and what reached the wire.
	sc.Step(`^the run's pending request is exactly the request of "([^"]*)"$`, (*World).pendingIs)
	sc.Step(`^the run's pending request has exactly the keys (.+)$`, (*World).pendingKeys)
	sc.Step(`^the run has no pending request$`, (*World).noPending)
	sc.Step(`^the run's pending request's text "([^"]*)" is exactly "([^"]*)"$`, (*World).pendingText)
	sc.Step(`^the run's pending request's "([^"]*)" is exactly (.+)$`, (*World).pendingField)
	sc.Step(`^the run's messages end with one tool result, for the call of "([^"]*)"$`, (*World).endsWithOne)
	sc.Step(`^the run's last tool result holds exactly "([^"]*)"$`, (*World).lastResultHolds)
	sc.Step(`^LLM request (\d+) carries, for "([^"]*)", the tool result "([^"]*)"$`, (*World).carries)
	sc.Step(`^LLM request (\d+) carries, for "([^"]*)", its resumed output$`, (*World).carriesResumed)
	sc.Step(`^LLM request (\d+) carries, for "([^"]*)", the tool result whose JSON is (.+)$`, (*World).carriesJSON)
	sc.Step(`^LLM request (\d+) carries, for "([^"]*)", exactly the tool result (.+)$`, (*World).carries)
	sc.Step(`^LLM request (\d+) marks the tool result for "([^"]*)" "is_error": true$`, (*World).marksError)
	sc.Step(`^the afterTool hook saw only the resumed output of "([^"]*)"$`, (*World).afterToolResumed)
	sc.Step(`^the stream's pending event carries exactly the request of "([^"]*)", before that call's tool result$`, (*World).pendingEvent)
}

func parseObject(raw string) (map[string]any, error) {
	var m map[string]any
	if err := common.StepJSON(raw, &m); err != nil {
		return nil, fmt.Errorf("harness: %s is not a JSON object: %w", raw, err)
	}
	return m, nil
}

func (w *World) tool(name string) (*suspender, error) {
	if t := w.sp().tools[name]; t != nil {
		return t, nil
	}
	return nil, fmt.Errorf("harness: no suspending tool %q in this scenario", name)
}

func (w *World) suspends(name, raw, output string) error {
	req, err := parseObject(raw)
	if err != nil {
		return err
	}
	w.sp().tools[name] = &suspender{request: req, output: output}
	w.sp().order = append(w.sp().order, name)
	return nil
}

func (w *World) slow(name string, ms int) error {
	t, err := w.tool(name)
	if err == nil {
		t.delay = time.Duration(ms) * time.Millisecond
	}
	return err
}

func (w *World) suspendsAgain(name string) error {
	t, err := w.tool(name)
	if err == nil {
		t.again = true
	}
	return err
}

func (w *World) suspendsAgainAsking(name, prompt string) error {
	t, err := w.tool(name)
	if err == nil {
		t.again, t.againPrompt = true, prompt
	}
	return err
}

func (w *World) resumesWithError(name, text string) error {
	t, err := w.tool(name)
	if err == nil {
		t.resumedError = text
	}
	return err
}

// toolkit builds the toolkit: the named suspending tools, and the options other areas set.
func (w *World) toolkit(list string) error {
	var decl []any
	for _, name := range common.QuotedList(list) {
		if _, err := w.tool(name); err != nil {
			return err
		}
		decl = append(decl, map[string]any{"name": name, "description": "suspending tool " + name,
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"x": map[string]any{}}}})
	}
	return w.build(map[string]any{"suspendingTools": decl})
}

func (w *World) optionsToolkit() error { return w.build(map[string]any{}) }

func (w *World) build(args map[string]any) error { return w.TK().Create(args) }

func (w *World) waitForAnswers(raw string) error {
	ans, err := parseObject(raw)
	if err != nil {
		return err
	}
	w.sp().answer = ans
	return kernel.SetOption(w.A, "client.create", "waitFor", true)
}

func (w *World) guard(name, raw string) error {
	req, err := parseObject(raw)
	if err != nil {
		return err
	}
	sp := w.sp()
	sp.mu.Lock()
	first := sp.guarded == nil
	if first {
		sp.guarded = map[string]map[string]any{}
	}
	sp.guarded[name] = req
	sp.mu.Unlock()
	if !first {
		return nil
	}
	return hooks.AddGuard(w.A, sp.guard)
}

// slotCalls are the last returned run's calls of one slot of this area.
func (w *World) slotCalls(slot string) ([]map[string]any, error) {
	ran := client.RanRequests(w.A)
	if len(ran) == 0 {
		return nil, fmt.Errorf("harness: no run returned")
	}
	var out []map[string]any
	for _, c := range ran[len(ran)-1].Slots {
		if c.Slot == "suspension."+slot {
			out = append(out, c.Decode())
		}
	}
	return out, nil
}

func (w *World) waitForCalls(n int) error {
	calls, err := w.slotCalls("waitFor")
	if err == nil && len(calls) != n {
		err = fmt.Errorf("waitFor was called %d times; want %d: %s", len(calls), n, common.CompactJSON(calls))
	}
	return err
}

func (w *World) waitForSaw(name string) error {
	t, err := w.tool(name)
	if err != nil {
		return err
	}
	calls, err := w.slotCalls("waitFor")
	if err != nil {
		return err
	}
	if len(calls) == 0 {
		return fmt.Errorf("waitFor was never called")
	}
	for i, c := range calls {
		if err := common.SameJSON(fmt.Sprintf("waitFor call %d's request", i+1), common.CompactJSON(t.request), c["request"]); err != nil {
			return err
		}
	}
	return nil
}

// waitForEach: one call per named tool's request, told apart by id, in any order.
func (w *World) waitForEach(list string) error {
	calls, err := w.slotCalls("waitFor")
	if err != nil {
		return err
	}
	names := common.QuotedList(list)
	if len(calls) != len(names) {
		return fmt.Errorf("waitFor was called %d times; want once for each of %s: %s", len(calls), list, common.CompactJSON(calls))
	}
	seen := map[string]int{}
	for _, c := range calls {
		req, _ := c["request"].(map[string]any)
		seen[fmt.Sprint(req["id"])]++
	}
	for _, name := range names {
		t, err := w.tool(name)
		if err != nil {
			return err
		}
		if seen[fmt.Sprint(t.request["id"])] != 1 {
			return fmt.Errorf("waitFor saw the request of %q %d times; want once: %s", name, seen[fmt.Sprint(t.request["id"])], common.CompactJSON(calls))
		}
	}
	return nil
}

func (w *World) runsOf(name string) ([]map[string]any, error) {
	calls, err := w.slotCalls("tool")
	var out []map[string]any
	for _, c := range calls {
		if c["name"] == name {
			out = append(out, c)
		}
	}
	return out, err
}

func (w *World) ran(name string, n int) error {
	runs, err := w.runsOf(name)
	if err == nil && len(runs) != n {
		err = fmt.Errorf("the tool %q ran %d times; want %d: %s", name, len(runs), n, common.CompactJSON(runs))
	}
	return err
}

// ranAgain: exactly two runs, the first with no answer, the second with the first's input
// and an answer holding what raw holds and the request's id.
func (w *World) ranAgain(name, raw string) error {
	t, err := w.tool(name)
	if err != nil {
		return err
	}
	want, err := parseObject(raw)
	if err != nil {
		return err
	}
	runs, err := w.runsOf(name)
	if err != nil {
		return err
	}
	if len(runs) != 2 {
		return fmt.Errorf("the tool %q ran %d times; want twice: %s", name, len(runs), common.CompactJSON(runs))
	}
	if a := runs[0]["answer"]; a != nil {
		return fmt.Errorf("the first run of %q already had an answer: %s", name, common.CompactJSON(a))
	}
	if err := common.SameJSON("the second run's arguments", common.CompactJSON(runs[0]["input"]), runs[1]["input"]); err != nil {
		return err
	}
	want["id"] = t.request["id"]
	if where := common.Includes(want, runs[1]["answer"]); where != "" {
		return fmt.Errorf("the second run of %q had the answer %s; want one including %s (at %s)", name, common.CompactJSON(runs[1]["answer"]), common.CompactJSON(want), where)
	}
	return nil
}

// firstRanWith: the tool's first run had exactly these arguments.
func (w *World) firstRanWith(name, raw string) error {
	runs, err := w.runsOf(name)
	if err != nil {
		return err
	}
	if len(runs) == 0 {
		return fmt.Errorf("the tool %q never ran", name)
	}
	return common.SameJSON(fmt.Sprintf("the first run of %q's arguments", name), raw, runs[0]["input"])
}

func (w *World) pending() (map[string]any, error) {
	r, err := client.LastResult(w.A)
	if err != nil {
		return nil, err
	}
	p, ok := r["pending"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the run has no pending request (status %v, pending %s)", r["status"], common.CompactJSON(r["pending"]))
	}
	return p, nil
}

func (w *World) pendingIs(name string) error {
	t, err := w.tool(name)
	if err != nil {
		return err
	}
	p, err := w.pending()
	if err != nil {
		return err
	}
	return common.SameJSON("the run's pending request", common.CompactJSON(t.request), p)
}

func (w *World) pendingKeys(list string) error {
	p, err := w.pending()
	if err != nil {
		return err
	}
	return common.ExactKeys("the run's pending request", p, common.SplitList(list)...)
}

// pendingField compares one key of the pending request with a JSON value, exactly.
func (w *World) pendingField(key, raw string) error {
	p, err := w.pending()
	if err != nil {
		return err
	}
	return common.SameJSON("the run's pending request's "+key, raw, p[key])
}

// pendingText: a text field of the pending Request is exactly the text (its ⟨…⟩ notation
// expanded), for texts a JSON string in a step could not spell as one value.
func (w *World) pendingText(key, want string) error {
	want, err := common.CodePoints(want)
	if err != nil {
		return err
	}
	p, err := w.pending()
	if err != nil {
		return err
	}
	if got, ok := p[key].(string); !ok || got != want {
		return fmt.Errorf("the run's pending request's %s is %s; want exactly %q", key, common.CompactJSON(p[key]), want)
	}
	return nil
}

func (w *World) noPending() error {
	r, err := client.LastResult(w.A)
	if err == nil && r["pending"] != nil {
		err = fmt.Errorf("the run has the pending request %s; want none", common.CompactJSON(r["pending"]))
	}
	return err
}

func (w *World) messages() ([]any, error) {
	r, err := client.LastResult(w.A)
	if err != nil {
		return nil, err
	}
	msgs, _ := r["messages"].([]any)
	return msgs, nil
}

// endsWithOne: after the last assistant message, exactly one tool result, for name's call.
func (w *World) endsWithOne(name string) error {
	msgs, err := w.messages()
	if err != nil {
		return err
	}
	results := common.ToolResults(msgs)
	appended := common.ToolResults(append(assistantOf(msgs), tail(msgs)...))
	if len(appended) != 1 || appended[0].Name != name {
		return fmt.Errorf("the run's messages end with %d tool results %s; want one, for the call of %q (every result: %s)",
			len(appended), describe(appended), name, describe(results))
	}
	return nil
}

// assistantOf is the last assistant message alone, which names the calls the tail answers.
func assistantOf(msgs []any) []any {
	t := tail(msgs)
	if len(t) == len(msgs) {
		return nil
	}
	return []any{msgs[len(msgs)-len(t)-1]}
}

func describe(rs []common.ToolResult) string {
	var parts []string
	for _, r := range rs {
		parts = append(parts, fmt.Sprintf("%s(%s)=%q", r.Name, r.ID, common.ClipString(r.Content, 80)))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func (w *World) lastResultHolds(want string) error {
	msgs, err := w.messages()
	if err != nil {
		return err
	}
	rs := common.ToolResults(msgs)
	if len(rs) == 0 {
		return fmt.Errorf("the run's messages hold no tool result")
	}
	if got := rs[len(rs)-1].Content; got != want {
		return fmt.Errorf("the run's last tool result holds %q; want exactly %q", got, want)
	}
	return nil
}

// resultFor is the tool result for name's call in LLM request n.
func (w *World) resultFor(n int, name string) (common.ToolResult, error) {
	body, err := client.Body(w.A, n)
	if err != nil {
		return common.ToolResult{}, err
	}
	msgs, _ := body["messages"].([]any)
	rs := common.ToolResults(msgs)
	var found []common.ToolResult
	for _, r := range rs {
		if r.Name == name {
			found = append(found, r)
		}
	}
	if len(found) != 1 {
		return common.ToolResult{}, fmt.Errorf("LLM request %d carries %d tool results for %q; want one: %s", n, len(found), name, describe(rs))
	}
	return found[0], nil
}

func (w *World) carries(n int, name, want string) error {
	want, err := common.CodePoints(want)
	if err != nil {
		return err
	}
	r, err := w.resultFor(n, name)
	if err == nil && r.Content != want {
		err = fmt.Errorf("LLM request %d carries, for %q, %q; want exactly %q", n, name, r.Content, want)
	}
	return err
}

// carriesJSON: the tool result parses as JSON equal to raw (its bytes are the pin's).
func (w *World) carriesJSON(n int, name, raw string) error {
	r, err := w.resultFor(n, name)
	if err != nil {
		return err
	}
	var got any
	if err := json.Unmarshal([]byte(r.Content), &got); err != nil {
		return fmt.Errorf("LLM request %d carries, for %q, %q, which is not JSON", n, name, common.ClipString(r.Content, 300))
	}
	return common.SameJSON(fmt.Sprintf("LLM request %d's tool result for %q", n, name), raw, got)
}

// resumedOutput is what the runner's tool answers once resumed with the scenario's answer.
func (w *World) resumedOutput() (string, error) {
	if w.sp().answer == nil {
		return "", fmt.Errorf("harness: the scenario's waitFor has no answer")
	}
	data, err := json.Marshal(w.sp().answer["data"])
	return "resumed: " + string(data), err
}

func (w *World) carriesResumed(n int, name string) error {
	want, err := w.resumedOutput()
	if err != nil {
		return err
	}
	return w.carries(n, name, want)
}

func (w *World) marksError(n int, name string) error {
	r, err := w.resultFor(n, name)
	if err == nil && r.IsError != true {
		err = fmt.Errorf("LLM request %d's tool result for %q carries \"is_error\": %s; want true", n, name, common.CompactJSON(r.IsError))
	}
	return err
}

func (w *World) afterToolResumed(name string) error {
	want, err := w.resumedOutput()
	if err != nil {
		return err
	}
	ran := client.RanRequests(w.A)
	if len(ran) == 0 {
		return fmt.Errorf("harness: no run returned")
	}
	var outs []any
	for _, c := range ran[len(ran)-1].Slots {
		if c.Slot == "hooks.afterTool" {
			d := c.Decode()
			res, _ := d["result"].(map[string]any)
			outs = append(outs, res["output"])
		}
	}
	if len(outs) != 1 || outs[0] != want {
		return fmt.Errorf("afterTool saw the outputs %s; want only %q", common.CompactJSON(outs), want)
	}
	return nil
}

// pendingEvent: a pending event whose request is name's, before the tool_result of the call
// it suspended (the event is sent before waitFor runs; a consumer reads it in order).
func (w *World) pendingEvent(name string) error {
	t, err := w.tool(name)
	if err != nil {
		return err
	}
	r, err := client.LastResult(w.A)
	if err != nil {
		return err
	}
	events, _ := r["events"].([]any)
	at := -1
	for i, e := range events {
		ev, _ := e.(map[string]any)
		if ev["type"] == "pending" {
			if err := common.SameJSON("the pending event's request", common.CompactJSON(t.request), ev["request"]); err != nil {
				return err
			}
			at = i
			break
		}
	}
	if at < 0 {
		return fmt.Errorf("the stream has no pending event: %s", common.ClipString(common.CompactJSON(events), 600))
	}
	for _, e := range events[:at] {
		if ev, _ := e.(map[string]any); ev["type"] == "tool_result" && ev["name"] == name {
			return fmt.Errorf("the stream's tool_result for %q came before its pending event: %s", name, common.ClipString(common.CompactJSON(events), 600))
		}
	}
	return nil
}

// tail is what follows the last assistant message: the tool results a run appended.
func tail(messages []any) []any {
	for i := len(messages) - 1; i >= 0; i-- {
		if m, _ := messages[i].(map[string]any); m["role"] == "assistant" {
			return messages[i+1:]
		}
	}
	return nil
}
