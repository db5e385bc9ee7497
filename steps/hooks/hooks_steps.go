package hooks

import (
	"fmt"
	llmfake "github.com/muthuishere/toolnexus-conformance/fakes/llm"
	"sort"
	"strings"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/client"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
	"github.com/muthuishere/toolnexus-conformance/steps/llm"
)

func registerHooksSteps(sc *kernel.Steps) {
	sc.Step(`^every hook records what it sees$`, (*World).recordAll)
	sc.Step(`^the beforeTool hook denies "([^"]*)" with "([^"]*)"$`, (*World).deny)
	sc.Step(`^the beforeTool hook rewrites the arguments of "([^"]*)" to (\{.*\})$`, (*World).rewrite)
	sc.Step(`^the afterTool hook replaces the output of "([^"]*)" with "([^"]*)"$`, (*World).replace)
	sc.Step(`^the loop's order is: (.+)$`, (*World).orderIs)
	sc.Step(`^the afterLLM hook saw, on turn (\d+), the usage (\{.*\})$`, (*World).afterLLMUsage)
	sc.Step(`^the beforeTool hook saw (\{.*\})$`, (*World).beforeToolSaw)
	sc.Step(`^the afterTool hook was never called$`, (*World).afterToolNever)
	sc.Step(`^the afterTool hook saw (\{.*\})$`, (*World).afterToolSaw)
	sc.Step(`^the afterTool hook saw exactly the arguments (\{.*\})$`, (*World).afterToolSawArgs)
	sc.Step(`^the (beforeTool|afterTool) hook saw, in order, the turns (.+)$`, (*World).toolHookTurns)
	sc.Step(`^the fake LLM calls the tool "([^"]*)", then calls "([^"]*)" and "([^"]*)" at once, and then answers "([^"]*)"$`, (*World).threeTurns)
	sc.Step(`^the run's tool call (\d+) includes (\{.*\})$`, (*World).runCallIncludes)
	sc.Step(`^the beforeTool hook denies "([^"]*)" with "([^"]*)", flagged as an error$`, (*World).denyAsError)
	sc.Step(`^a BeforeLLM hook that, on turn (\d+) only, replaces the last user message with "([^"]*)"$`, (*World).hookReplacesOnTurn)
	sc.Step(`^the messages of LLM request (\d+) carry "([^"]*)" and not "([^"]*)"$`, (*World).messagesCarryNot)
}

func (w *World) denyAsError(tool, text string) error {
	text, err := common.CodePoints(text) // ⟨edge:…⟩ values a quoted argument cannot carry
	if err != nil {
		return err
	}
	w.hk().deny[tool], w.hk().denyAsError[tool] = text, true
	return nil
}

// hookReplacesOnTurn installs the llm area's BeforeLLM hook, acting on one turn (0-based, as
// the hook's turn is) and returning nothing on the others.
func (w *World) hookReplacesOnTurn(turn int, content string) error {
	if w.client().Client == nil {
		return fmt.Errorf("harness: hook before a client")
	}
	return llm.InstallBeforeLLM(w.A, map[string]any{"setLastUserContent": content, "onTurn": turn})
}

// messagesCarryNot: request n's messages, as JSON text, contain one text and not the other.
func (w *World) messagesCarryNot(n int, want, gone string) error {
	body, err := client.Body(w.A, n)
	if err != nil {
		return err
	}
	text := common.JSONString(body["messages"])
	if !strings.Contains(text, want) || strings.Contains(text, gone) {
		return fmt.Errorf("LLM request %d's messages should carry %q and not %q: %s", n, want, gone, common.CompactJSON(body["messages"]))
	}
	return nil
}

// recordAll installs the four hooks: beforeLLM (the llm area's, with no override) and the
// three of this area, each answering as the scenario says (null unless told otherwise).
func (w *World) recordAll() error {
	if _, ok := kernel.OptionsOf(w.A, "client.create")["beforeLLM"]; !ok {
		if err := llm.InstallBeforeLLM(w.A, map[string]any{}); err != nil {
			return err
		}
	}
	for _, h := range []string{"afterLLM", "beforeTool", "afterTool"} {
		if err := kernel.SetOption(w.A, "client.create", h, true); err != nil {
			return err
		}
	}
	return nil
}

func (w *World) deny(tool, text string) error { w.hk().deny[tool] = text; return nil }

func (w *World) rewrite(tool, raw string) error {
	var m map[string]any
	if err := common.StepJSON(raw, &m); err != nil {
		return fmt.Errorf("harness: %s is not a JSON object: %w", raw, err)
	}
	w.hk().rewrite[tool] = m
	return nil
}

func (w *World) replace(tool, text string) error {
	text, err := common.CodePoints(text) // ⟨edge:…⟩ values a quoted argument cannot carry
	if err != nil {
		return err
	}
	w.hk().replace[tool] = text
	return nil
}

// event is one thing the loop did, on the runner's clock: a host function's call or a
// request the fake LLM received.
type event struct {
	at    time.Time
	label string
}

// runSlots are the slot calls of the last client.run that returned.
func (w *World) runSlots() ([]kernel.SlotCall, error) {
	ran := client.RanRequests(w.A)
	if len(ran) == 0 {
		return nil, fmt.Errorf("harness: no run returned")
	}
	return ran[len(ran)-1].Slots, nil
}

// timeline merges the run's hook and tool calls with the fake LLM's requests, in time order.
func (w *World) timeline() ([]event, error) {
	slots, err := w.runSlots()
	if err != nil {
		return nil, err
	}
	var evs []event
	for _, c := range slots {
		args := c.Decode()
		label := ""
		switch c.Slot {
		case "llm.beforeLLM":
			label = fmt.Sprintf("beforeLLM(%v)", args["turn"])
		case "hooks.afterLLM":
			label = fmt.Sprintf("afterLLM(%v)", args["turn"])
		case "hooks.beforeTool":
			label = fmt.Sprintf("beforeTool(%v)", args["name"])
		case "hooks.afterTool":
			label = fmt.Sprintf("afterTool(%v)", args["name"])
		case "contract.tool":
			label = fmt.Sprintf("tool %v", args["name"])
		default:
			continue
		}
		evs = append(evs, event{c.At, label})
	}
	for i, r := range w.client().Route.Requests() {
		evs = append(evs, event{r.At, fmt.Sprintf("LLM request %d", i+1)})
	}
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].at.Before(evs[j].at) })
	return evs, nil
}

func (w *World) orderIs(list string) error {
	evs, err := w.timeline()
	if err != nil {
		return err
	}
	var got []string
	for _, e := range evs {
		got = append(got, e.label)
	}
	want := strings.Split(list, ", ")
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		return fmt.Errorf("the loop's order differs (-want +got):\n%w", kernel.DiffOf(want, got))
	}
	return nil
}

// calls are the decoded arguments of the run's calls of one slot, in order.
func (w *World) calls(slot string) ([]map[string]any, error) {
	slots, err := w.runSlots()
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	for _, c := range slots {
		if c.Slot == slot {
			out = append(out, c.Decode())
		}
	}
	return out, nil
}

func (w *World) afterLLMUsage(turn int, raw string) error {
	calls, err := w.calls("hooks.afterLLM")
	if err != nil {
		return err
	}
	for _, c := range calls {
		if fmt.Sprint(c["turn"]) != fmt.Sprint(turn) {
			continue
		}
		resp, _ := c["response"].(map[string]any)
		var want any
		_ = common.StepJSON(raw, &want)
		if path := common.Includes(want, resp["usage"]); path != "" {
			return fmt.Errorf("afterLLM on turn %d saw the usage %s; want it to include %s (at %s)", turn, common.CompactJSON(resp["usage"]), raw, path)
		}
		return nil
	}
	return fmt.Errorf("afterLLM was not called on turn %d (its calls: %s)", turn, common.CompactJSON(calls))
}

func (w *World) beforeToolSaw(raw string) error { return w.hookSawOnce("beforeTool", raw) }
func (w *World) afterToolSaw(raw string) error  { return w.hookSawOnce("afterTool", raw) }

// hookSawOnce: the tool hook was called once, with at least what raw holds.
func (w *World) hookSawOnce(hook, raw string) error {
	calls, err := w.calls("hooks." + hook)
	if err != nil {
		return err
	}
	if len(calls) != 1 {
		return fmt.Errorf("%s was called %d times; want once: %s", hook, len(calls), common.CompactJSON(calls))
	}
	var want any
	if err := common.StepJSON(raw, &want); err != nil {
		return fmt.Errorf("harness: %s is not JSON: %w", raw, err)
	}
	if path := common.Includes(want, calls[0]); path != "" {
		return fmt.Errorf("%s saw %s; want it to include %s (at %s)", hook, common.CompactJSON(calls[0]), raw, path)
	}
	return nil
}

// afterToolSawArgs: afterTool was called once, with these arguments and no others.
func (w *World) afterToolSawArgs(raw string) error {
	calls, err := w.calls("hooks.afterTool")
	if err != nil {
		return err
	}
	if len(calls) != 1 {
		return fmt.Errorf("afterTool was called %d times; want once: %s", len(calls), common.CompactJSON(calls))
	}
	return common.SameJSON("the arguments afterTool saw", raw, calls[0]["args"])
}

// toolHookTurns: the hook's calls, in order, carried these turns.
func (w *World) toolHookTurns(hook, list string) error {
	calls, err := w.calls("hooks." + hook)
	if err != nil {
		return err
	}
	var got []string
	for _, c := range calls {
		got = append(got, fmt.Sprint(c["turn"]))
	}
	if want := common.SplitList(list); strings.Join(got, ", ") != strings.Join(want, ", ") {
		return fmt.Errorf("%s saw the turns %s; want %s", hook, strings.Join(got, ", "), strings.Join(want, ", "))
	}
	return nil
}

// threeTurns scripts one call, then two at once, then text.
func (w *World) threeTurns(first, a, b, text string) error {
	w.client().Route.Script(
		llmfake.Reply{ToolCalls: []llmfake.ToolCall{{Name: first}}},
		llmfake.Reply{ToolCalls: []llmfake.ToolCall{{Name: a}, {Name: b}}},
		llmfake.Reply{Text: text},
	)
	return nil
}

func (w *World) afterToolNever() error {
	calls, err := w.calls("hooks.afterTool")
	if err != nil {
		return err
	}
	if len(calls) > 0 {
		return fmt.Errorf("afterTool was called %d times: %s", len(calls), common.CompactJSON(calls))
	}
	return nil
}

func (w *World) runCallIncludes(n int, raw string) error {
	rs := w.client().Results
	if len(rs) == 0 {
		return fmt.Errorf("harness: no run returned a result")
	}
	calls, _ := rs[len(rs)-1]["calls"].([]any)
	if n < 1 || n > len(calls) {
		return fmt.Errorf("the run result lists %d tool calls; there is no call %d", len(calls), n)
	}
	var want any
	if err := common.StepJSON(raw, &want); err != nil {
		return fmt.Errorf("harness: %s is not JSON: %w", raw, err)
	}
	if path := common.Includes(want, calls[n-1]); path != "" {
		return fmt.Errorf("the run's tool call %d is %s; want it to include %s (at %s)", n, common.CompactJSON(calls[n-1]), raw, path)
	}
	return nil
}
