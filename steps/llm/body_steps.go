package llm

import (
	"fmt"
	"sort"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/client"
	"github.com/muthuishere/toolnexus-conformance/steps/common"

	"github.com/cucumber/godog"
)

func registerBodySteps(sc *kernel.Steps) {
	sc.Step(`^every LLM request body has "([^"]*)" equal to (.+)$`, (*World).everyBodyHasInline)
	sc.Step(`^every LLM request body has "([^"]*)" equal to:$`, (*World).everyBodyHasDoc)
	sc.Step(`^no LLM request body has the key "([^"]*)"$`, (*World).noBodyHasKey)
	sc.Step(`^every LLM request body has exactly the keys (.+)$`, (*World).exactKeys)
	sc.Step(`^every LLM request body has exactly this port's pre-change keys for "([^"]*)"$`, (*World).exactPreChangeKeys)
	sc.Step(`^the LLM request body's "([^"]*)" is (absent|true|"[^"]*")$`, (*World).bodyKeyIs)
	sc.Step(`^the body transform saw "([^"]*)" equal to (.+)$`, (*World).transformSaw)
	sc.Step(`^the body transform saw the last user message "([^"]*)"$`, (*World).transformSawLastUser)
	sc.Step(`^the body transform ran on every LLM request$`, (*World).transformRanOnEvery)
	sc.Step(`^the body transform never saw "([^"]*)"$`, (*World).transformNeverSaw)
	sc.Step(`^each wire body is exactly what the body transform returned$`, (*World).wireIsTransformOutput)
	sc.Step(`^the last user message on the wire is "([^"]*)"$`, (*World).lastUserOnWire)
	sc.Step(`^every LLM request offers exactly the tools (.+)$`, (*World).offersTools)
	sc.Step(`^LLM request (\d+) carries the tool output "([^"]*)"$`, (*World).requestCarriesToolOutput)
	sc.Step(`^the last LLM request carries, in order, the messages (.+)$`, (*World).lastRequestCarriesInOrder)
}

func parseJSONValue(s string) (any, error) {
	var v any
	if err := common.StepJSON(strings.TrimSpace(s), &v); err != nil {
		return nil, fmt.Errorf("harness: %q is not JSON: %w", s, err)
	}
	return v, nil
}

func (w *World) everyBodyHasInline(key, raw string) error {
	want, err := parseJSONValue(raw)
	if err != nil {
		return err
	}
	return w.everyBodyHas(key, want)
}

func (w *World) everyBodyHasDoc(key string, doc *godog.DocString) error {
	want, err := parseJSONValue(doc.Content)
	if err != nil {
		return err
	}
	return w.everyBodyHas(key, want)
}

func (w *World) everyBodyHas(key string, want any) error {
	bodies, err := w.Bodies()
	if err != nil {
		return err
	}
	for i, b := range bodies {
		got, ok := b[key]
		if !ok {
			return fmt.Errorf("LLM request %d has no %q key; keys: %v", i+1, key, common.KeysOf(b))
		}
		if d := kernel.DiffOf(want, got); d != nil {
			return fmt.Errorf("LLM request %d: %q differs (-want +got):\n%w", i+1, key, d)
		}
	}
	return nil
}

func (w *World) noBodyHasKey(key string) error {
	bodies, err := w.Bodies()
	if err != nil {
		return err
	}
	for i, b := range bodies {
		if v, ok := b[key]; ok {
			return fmt.Errorf("LLM request %d has %q = %s; the key must be absent", i+1, key, common.JSONString(v))
		}
	}
	return nil
}

func (w *World) exactKeys(list string) error {
	want := common.SplitList(list)
	sort.Strings(want)
	bodies, err := w.Bodies()
	if err != nil {
		return err
	}
	for i, b := range bodies {
		if d := kernel.DiffOf(want, common.KeysOf(b)); d != nil {
			return fmt.Errorf("LLM request %d key set differs (-want +got):\n%w", i+1, d)
		}
	}
	return nil
}

func (w *World) bodyKeyIs(key, state string) error {
	switch state {
	case "absent":
		return w.noBodyHasKey(key)
	case "true":
		return w.everyBodyHas(key, true)
	}
	return w.everyBodyHas(key, strings.Trim(state, `"`))
}

// transformSaws gathers what the adapter's transform recorded, across every run.
func (w *World) transformSaws() ([]map[string]any, error) {
	var out []map[string]any
	for _, r := range client.RanRequests(w.A) {
		for _, c := range r.Slots {
			if c.Slot == "llm.bodyTransform" {
				m, _ := common.DeepCopy(c.Decode()["body"]).(map[string]any) // numbers as float64, as they are compared
				out = append(out, m)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the body transform was never called")
	}
	return out, nil
}

func (w *World) transformSaw(key, raw string) error {
	want, err := parseJSONValue(raw)
	if err != nil {
		return err
	}
	saws, err := w.transformSaws()
	if err != nil {
		return err
	}
	for i, s := range saws {
		if d := kernel.DiffOf(want, s[key]); d != nil {
			return fmt.Errorf("call %d of the transform saw %q differ (-want +got):\n%w", i+1, key, d)
		}
	}
	return nil
}

func (w *World) transformSawLastUser(want string) error {
	saws, err := w.transformSaws()
	if err != nil {
		return err
	}
	for i, s := range saws {
		if got := lastUserText(s); got != want {
			return fmt.Errorf("call %d of the transform saw the last user message %q; want %q", i+1, got, want)
		}
	}
	return nil
}

// transformNeverSaw: the transform's input is recorded before it edits, so an edit that
// leaked from one request into the next (through the transcript or the caller's params) shows.
func (w *World) transformNeverSaw(text string) error {
	saws, err := w.transformSaws()
	if err != nil {
		return err
	}
	for i, s := range saws {
		if js := common.JSONString(s); strings.Contains(js, text) {
			return fmt.Errorf("call %d of the transform was given a body already carrying %q (an earlier in-place edit leaked): %s", i+1, text, common.ClipString(js, 600))
		}
	}
	return nil
}

func (w *World) transformRanOnEvery() error {
	saws, err := w.transformSaws()
	if err != nil {
		return err
	}
	if n := len(w.State().Route.Requests()); len(saws) != n {
		return fmt.Errorf("the transform ran %d times for %d LLM requests", len(saws), n)
	}
	return nil
}

// wireIsTransformOutput replays the declared transform on what it saw and compares the
// result with the wire, so "what it returns is exactly what is sent" is checked at the fake.
func (w *World) wireIsTransformOutput() error {
	saws, err := w.transformSaws()
	if err != nil {
		return err
	}
	bodies, err := w.Bodies()
	if err != nil {
		return err
	}
	if len(saws) != len(bodies) {
		return fmt.Errorf("the transform ran %d times for %d LLM requests", len(saws), len(bodies))
	}
	spec := w.llm().transform
	for i := range bodies {
		want := applyTransform(spec, saws[i])
		if d := kernel.DiffOf(want, bodies[i]); d != nil {
			return fmt.Errorf("LLM request %d is not what the transform returned (-returned +wire):\n%w", i+1, d)
		}
	}
	return nil
}

// applyTransform is the harness's own model of the declared transform (SPEC.md §3).
func applyTransform(spec, saw map[string]any) map[string]any {
	out := common.DeepCopy(saw).(map[string]any)
	if null, _ := spec["returnNull"].(bool); null {
		return out
	}
	if del, ok := spec["delete"].([]any); ok {
		for _, k := range del {
			delete(out, k.(string))
		}
	}
	if set, ok := spec["set"].(map[string]any); ok {
		for k, v := range set {
			out[k] = v
		}
	}
	if nested, ok := spec["setNested"].(map[string]any); ok {
		for k, v := range nested {
			obj, _ := out[k].(map[string]any)
			if obj == nil {
				obj = map[string]any{}
			}
			sub, _ := v.(map[string]any)
			for kk, vv := range sub {
				obj[kk] = vv
			}
			out[k] = obj
		}
	}
	if suffix, ok := spec["appendToLastUser"].(string); ok {
		msgs, _ := out["messages"].([]any)
		for i := len(msgs) - 1; i >= 0; i-- {
			m, _ := msgs[i].(map[string]any)
			if m["role"] == "user" {
				if c, ok := m["content"].(string); ok {
					m["content"] = c + suffix
				}
				break
			}
		}
	}
	return out
}

func (w *World) lastUserOnWire(want string) error {
	bodies, err := w.Bodies()
	if err != nil {
		return err
	}
	if got := lastUserText(bodies[0]); got != want {
		return fmt.Errorf("the last user message on the wire is %q; want %q", got, want)
	}
	return nil
}

func (w *World) offersTools(list string) error {
	want := common.SplitList(list)
	bodies, err := w.Bodies()
	if err != nil {
		return err
	}
	for i, b := range bodies {
		tools, ok := b["tools"].([]any)
		if !ok {
			return fmt.Errorf("LLM request %d has no tools array (tools = %s)", i+1, common.JSONString(b["tools"]))
		}
		var got []string
		for _, t := range tools {
			got = append(got, toolName(t))
		}
		if d := kernel.DiffOf(want, got); d != nil {
			return fmt.Errorf("LLM request %d offers other tools (-want +got):\n%w", i+1, d)
		}
	}
	return nil
}

func (w *World) requestCarriesToolOutput(n int, output string) error {
	body, err := w.Body(n)
	if err != nil {
		return err
	}
	if !strings.Contains(common.JSONString(body["messages"]), output) {
		return fmt.Errorf("LLM request %d does not carry the tool output %q in its messages", n, output)
	}
	return nil
}

func (w *World) lastRequestCarriesInOrder(list string) error {
	bodies, err := w.Bodies()
	if err != nil {
		return err
	}
	msgs, _ := bodies[len(bodies)-1]["messages"].([]any)
	var texts []string
	for _, m := range msgs {
		texts = append(texts, common.MessageText(m))
	}
	return common.InOrder(texts, common.QuotedList(list), "the last LLM request")
}

// toolName reads a tool's name in either wire shape.
func toolName(t any) string {
	m, _ := t.(map[string]any)
	if f, ok := m["function"].(map[string]any); ok {
		s, _ := f["name"].(string)
		return s
	}
	s, _ := m["name"].(string)
	return s
}

func lastUserText(body map[string]any) string {
	msgs, _ := body["messages"].([]any)
	for i := len(msgs) - 1; i >= 0; i-- {
		if m, _ := msgs[i].(map[string]any); m["role"] == "user" {
			return common.MessageText(m)
		}
	}
	return ""
}
