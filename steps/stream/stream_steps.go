package stream

import (
	"fmt"
	"strings"

	llmfake "github.com/muthuishere/toolnexus-conformance/fakes/llm"
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

func registerStreamSteps(sc *kernel.Steps) {
	sc.Step(`^the fake LLM first calls the tool "([^"]*)" and then streams "([^"]*)" and "([^"]*)"$`, (*World).toolThenPieces)
	sc.Step(`^the fake LLM first calls the tool "([^"]*)" with (\{.*\}) and the tool "([^"]*)" with (\{.*\}) at once, their argument fragments interleaved, and then answers "([^"]*)"$`, (*World).twoCallsInterleaved)
	sc.Step(`^the fake LLM first calls the tool "([^"]*)" with (\{.*\}) and the tool "([^"]*)" with (\{.*\}) at once, index 1 opened before index 0 and their argument fragments interleaved, and then answers "([^"]*)"$`, (*World).twoCallsLastOpenedFirst)
	sc.Step(`^the fake LLM first calls the tool "([^"]*)", saying stop_reason "([^"]*)", and then answers "([^"]*)"$`, (*World).toolWithStopReason)
	sc.Step(`^the fake LLM, twice over, first calls the tool "([^"]*)" and then answers "([^"]*)"$`, (*World).scriptTwice)
	sc.Step(`^the stream's events include, in this order, (\[.*\])$`, (*World).eventsIncludeInOrder)
	sc.Step(`^the stream's event types are exactly (.+)$`, (*World).eventTypesAre)
	sc.Step(`^the stream's last event is its done event, whose result includes (\{.*\})$`, (*World).lastIsDone)
	sc.Step(`^the stream's text deltas join to its result's text$`, (*World).deltasJoin)
	sc.Step(`^the stream's text deltas join to "([^"]*)"$`, (*World).deltasJoinTo)
	sc.Step(`^the stream's done result equals the run's in (.+)$`, (*World).doneEqualsRun)
	sc.Step(`^the fake LLM first calls the tool "([^"]*)" with (\{.*\}) and then answers "([^"]*)", reporting 3\+4 and then 5\+6 tokens, from a provider that (.+)$`, (*World).quirkyProvider)
	sc.Step(`^the fake LLM first calls the tool "([^"]*)" and then streams one text delta of (\d+) "(.)" characters$`, (*World).longDelta)
	sc.Step(`^the stream's done result's text is (\d+) "(.)" characters$`, (*World).doneTextRepeated)
	sc.Step(`^the fake LLM first calls the tool "([^"]*)" and then streams (\d+) text deltas, each "([^"]*)"$`, (*World).manyDeltas)
	sc.Step(`^the stream has (\d+) text events, each "([^"]*)", and its done result's text is all of them joined$`, (*World).manyTextEvents)
}

// quirks are the stream variants of real providers the fake can play (fakes/llm Reply).
var quirks = map[string]func(*llmfake.Reply){
	`writes "data:" without the space`:         func(r *llmfake.Reply) { r.DataNoSpace = true },
	`ends every line with CR LF`:               func(r *llmfake.Reply) { r.CRLF = true },
	`repeats each call's id on every fragment`: func(r *llmfake.Reply) { r.RepeatCallIDs = true },
	`reports the usage on two chunks`:          func(r *llmfake.Reply) { r.UsageTwice = true },
	`repeats input_tokens in message_delta`:    func(r *llmfake.Reply) { r.DeltaInputTokens = true },
}

// quirkyProvider scripts a call and then a text answer, both streamed with the named quirk,
// reporting 3 prompt + 4 completion tokens and then 5 + 6.
func (w *World) quirkyProvider(tool, raw, text, quirk string) error {
	set, ok := quirks[quirk]
	if !ok {
		return fmt.Errorf("harness: no provider quirk %q", quirk)
	}
	var args map[string]any
	if err := common.StepJSON(raw, &args); err != nil {
		return fmt.Errorf("harness: %s is not a JSON object: %w", raw, err)
	}
	first := llmfake.Reply{ToolCalls: []llmfake.ToolCall{{Name: tool, Args: args}}, Usage: &llmfake.Usage{Prompt: 3, Completion: 4}}
	second := llmfake.Reply{Text: text, Usage: &llmfake.Usage{Prompt: 5, Completion: 6}}
	set(&first)
	set(&second)
	w.client().Route.Script(first, second)
	return nil
}

// longDelta scripts a call and then a text answer streamed as one delta of n copies of c:
// one SSE line longer than a line reader's default buffer (64 KiB in Go's bufio.Scanner).
func (w *World) longDelta(tool string, n int, c string) error {
	w.client().Route.Script(
		llmfake.Reply{ToolCalls: []llmfake.ToolCall{{Name: tool}}},
		llmfake.Reply{TextPieces: []string{strings.Repeat(c, n)}},
	)
	return nil
}

// manyDeltas scripts a call and then n text deltas of piece: thousands of SSE lines that
// arrive together, more than a client's bounded line buffer may hold.
func (w *World) manyDeltas(tool string, n int, piece string) error {
	p, err := common.CodePoints(piece)
	if err != nil {
		return err
	}
	pieces := make([]string, n)
	for i := range pieces {
		pieces[i] = p
	}
	w.client().Route.Script(llmfake.Reply{ToolCalls: []llmfake.ToolCall{{Name: tool}}}, llmfake.Reply{TextPieces: pieces})
	return nil
}

func (w *World) manyTextEvents(n int, piece string) error {
	p, err := common.CodePoints(piece)
	if err != nil {
		return err
	}
	ev, err := w.events()
	if err != nil {
		return err
	}
	got, odd := 0, -1
	for i, e := range ev {
		if e["type"] != "text" {
			continue
		}
		got++
		if e["delta"] != p && odd < 0 {
			odd = i
		}
	}
	if got != n {
		return fmt.Errorf("the stream has %d text events; want %d (one per delta sent)", got, n)
	}
	if odd >= 0 {
		return fmt.Errorf("event %d is %s; want each text event's delta %q", odd, common.CompactJSON(ev[odd]), p)
	}
	text, err := doneText(ev)
	if err != nil {
		return err
	}
	if text != strings.Repeat(p, n) {
		return fmt.Errorf("the done result's text is %d characters; want %d deltas of %q joined", len([]rune(text)), n, p)
	}
	return nil
}

// doneText is the text of the done event that must end the stream.
func doneText(ev []map[string]any) (string, error) {
	if len(ev) == 0 || ev[len(ev)-1]["type"] != "done" {
		return "", fmt.Errorf("the stream does not end with a done event")
	}
	res, _ := ev[len(ev)-1]["result"].(map[string]any)
	text, _ := res["text"].(string)
	return text, nil
}

func (w *World) doneTextRepeated(n int, c string) error {
	ev, err := w.events()
	if err != nil {
		return err
	}
	text, err := doneText(ev)
	if err != nil {
		return err
	}
	if text != strings.Repeat(c, n) {
		return fmt.Errorf("the done result's text is %d characters (%q…); want %d %q characters", len([]rune(text)), text[:min(len(text), 20)], n, c)
	}
	return nil
}

func (w *World) toolThenPieces(tool, a, b string) error {
	pieces := []string{a, b}
	for i, p := range pieces {
		var err error
		if pieces[i], err = common.CodePoints(p); err != nil { // a piece may be ⟨U+000A⟩
			return err
		}
	}
	w.client().Route.Script(
		llmfake.Reply{ToolCalls: []llmfake.ToolCall{{Name: tool}}},
		llmfake.Reply{TextPieces: pieces},
	)
	return nil
}

func (w *World) twoCallsInterleaved(t1, raw1, t2, raw2, text string) error {
	return w.twoCalls(t1, raw1, t2, raw2, text, false)
}

func (w *World) twoCallsLastOpenedFirst(t1, raw1, t2, raw2, text string) error {
	return w.twoCalls(t1, raw1, t2, raw2, text, true)
}

// twoCalls scripts two calls whose argument fragments interleave (index 1 opened first when
// lastFirst), then a text answer.
func (w *World) twoCalls(t1, raw1, t2, raw2, text string, lastFirst bool) error {
	var a1, a2 map[string]any
	if common.StepJSON(raw1, &a1) != nil || common.StepJSON(raw2, &a2) != nil {
		return fmt.Errorf("harness: %s or %s is not a JSON object", raw1, raw2)
	}
	w.client().Route.Script(
		llmfake.Reply{ToolCalls: []llmfake.ToolCall{{Name: t1, Args: a1}, {Name: t2, Args: a2}}, Interleave: true, LastOpenedFirst: lastFirst},
		llmfake.Reply{Text: text},
	)
	return nil
}

func (w *World) toolWithStopReason(tool, stop, text string) error {
	w.client().Route.Script(llmfake.Reply{ToolCalls: []llmfake.ToolCall{{Name: tool}}, StopReason: stop}, llmfake.Reply{Text: text})
	return nil
}

func (w *World) scriptTwice(tool, text string) error {
	for range 2 {
		w.client().Route.Script(
			llmfake.Reply{ToolCalls: []llmfake.ToolCall{{Name: tool, Args: map[string]any{"text": "from the model"}}}},
			llmfake.Reply{Text: text},
		)
	}
	return nil
}

// results are the run results in order; events are the last one's stream events.
func (w *World) events() ([]map[string]any, error) {
	rs := w.client().Results
	if len(rs) == 0 {
		return nil, fmt.Errorf("harness: no run returned a result")
	}
	raw, ok := rs[len(rs)-1]["events"].([]any)
	if !ok {
		return nil, fmt.Errorf("the streamed run reported no events (events: %s)", common.CompactJSON(rs[len(rs)-1]["events"]))
	}
	out := make([]map[string]any, len(raw))
	for i, e := range raw {
		out[i], _ = e.(map[string]any)
	}
	return out, nil
}

// eventsIncludeInOrder finds each wanted event, in order, among the events (others may come
// between); an event matches when it includes the wanted fields.
func (w *World) eventsIncludeInOrder(raw string) error {
	var want []any
	if err := common.StepJSON(raw, &want); err != nil {
		return fmt.Errorf("harness: %s is not a JSON array: %w", raw, err)
	}
	evs, err := w.events()
	if err != nil {
		return err
	}
	at := 0
	for _, wv := range want {
		found := false
		for ; at < len(evs); at++ {
			if common.Includes(wv, evs[at]) == "" {
				found, at = true, at+1
				break
			}
		}
		if !found {
			return fmt.Errorf("the stream's events lack %s in that order; they are %s", common.CompactJSON(wv), common.CompactJSON(evs))
		}
	}
	return nil
}

func (w *World) eventTypesAre(list string) error {
	evs, err := w.events()
	if err != nil {
		return err
	}
	var got []string
	for _, e := range evs {
		got = append(got, fmt.Sprint(e["type"]))
	}
	if strings.Join(got, ", ") != list {
		return fmt.Errorf("the stream's event types are %s; want exactly %s", strings.Join(got, ", "), list)
	}
	return nil
}

func (w *World) lastIsDone(raw string) error {
	evs, err := w.events()
	if err != nil {
		return err
	}
	if len(evs) == 0 || evs[len(evs)-1]["type"] != "done" {
		return fmt.Errorf("the stream's last event is not done: %s", common.CompactJSON(evs))
	}
	var want any
	if err := common.StepJSON(raw, &want); err != nil {
		return fmt.Errorf("harness: %s is not JSON: %w", raw, err)
	}
	if path := common.Includes(want, evs[len(evs)-1]["result"]); path != "" {
		return fmt.Errorf("the done event's result %s does not include %s (at %s)", common.CompactJSON(evs[len(evs)-1]["result"]), raw, path)
	}
	return nil
}

func (w *World) deltasJoin() error {
	evs, err := w.events()
	if err != nil {
		return err
	}
	var text any
	for _, e := range evs {
		if e["type"] == "done" {
			r, _ := e["result"].(map[string]any)
			text = r["text"]
		}
	}
	if joined := textDeltas(evs); text != joined {
		return fmt.Errorf("the text deltas join to %q; the done result's text is %s", joined, common.CompactJSON(text))
	}
	return nil
}

// textDeltas joins the deltas of every text event, all turns.
func textDeltas(evs []map[string]any) string {
	var b strings.Builder
	for _, e := range evs {
		if e["type"] == "text" {
			s, _ := e["delta"].(string)
			b.WriteString(s)
		}
	}
	return b.String()
}

// deltasJoinTo joins every text delta of the stream, all turns, and compares with want.
func (w *World) deltasJoinTo(want string) error {
	evs, err := w.events()
	if err != nil {
		return err
	}
	if joined := textDeltas(evs); joined != want {
		return fmt.Errorf("the stream's text deltas join to %q; want %q", joined, want)
	}
	return nil
}

// doneEqualsRun compares the named fields of the first run's result (not streamed) with the
// last stream's done result.
func (w *World) doneEqualsRun(fields string) error {
	rs := w.client().Results
	if len(rs) < 2 {
		return fmt.Errorf("harness: want a run and a stream; %d results", len(rs))
	}
	evs, err := w.events()
	if err != nil {
		return err
	}
	done, _ := evs[len(evs)-1]["result"].(map[string]any)
	want, got := map[string]any{}, map[string]any{}
	for _, f := range strings.Split(strings.ReplaceAll(fields, " and ", ", "), ", ") {
		want[f], got[f] = rs[0][f], done[f]
	}
	if d := kernel.DiffOf(want, got); d != nil {
		return fmt.Errorf("the stream's done result differs from the run's (-run +stream):\n%w", d)
	}
	return nil
}
