package memory

import (
	"fmt"
	"maps"
	"strings"

	llmfake "github.com/muthuishere/toolnexus-conformance/fakes/llm"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/client"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

func registerMemorySteps(sc *kernel.Steps) {
	sc.Step(`^the client runs "([^"]*)" in run mode with the messages of run (\d+) as history$`, (*World).runWithHistory)
	sc.Step(`^the client runs "([^"]*)" in stream mode in conversation "([^"]*)"$`, (*World).streamWithID)
	sc.Step(`^LLM request (\d+) starts with exactly the messages of run (\d+), then only the user message "([^"]*)"$`, (*World).startsWithRun)
	sc.Step(`^the client asks "([^"]*)" in conversation "([^"]*)", with a text callback$`, (*World).askOnText)
	sc.Step(`^the ask's text deltas join to its text$`, (*World).deltasJoin)
	sc.Step(`^a second client of the same style asks "([^"]*)" in conversation "([^"]*)"$`, (*World).secondClientAsks)
	sc.Step(`^the fake LLM answers "([^"]*)", then fails with (\d+), then answers "([^"]*)"$`, (*World).textFailText)
	sc.Step(`^LLM request (\d+) has at most one system message$`, (*World).oneSystem)
	sc.Step(`^LLM request (\d+) carries exactly the messages (.+), besides a system prompt$`, (*World).carriesExactly)
	sc.Step(`^a conversation on the client$`, (*World).conversation)
	sc.Step(`^the conversation sends "([^"]*)"$`, (*World).send)
	sc.Step(`^the conversation is reset$`, (*World).reset)
	sc.Step(`^the conversation's messages are empty$`, (*World).messagesEmpty)
	sc.Step(`^the conversation's messages are the messages of its last send$`, (*World).messagesAreLast)
	sc.Step(`^the store holds nothing under (.+)$`, (*World).storeEmpty)
	sc.Step(`^the store holds, under "([^"]*)", exactly the messages of the last run$`, (*World).storeHoldsLast)
}

func (w *World) runWithHistory(prompt string, n int) error {
	msgs, err := w.runMessages(n)
	if err != nil {
		return err
	}
	return client.RunWith(w.A, prompt, "run", map[string]any{"history": msgs})
}

func (w *World) streamWithID(prompt, id string) error {
	return client.RunWith(w.A, prompt, "stream", map[string]any{"id": id})
}

// runMessages is RunResult.messages of run n (1-based, the runs that returned).
func (w *World) runMessages(n int) ([]any, error) {
	res := w.client().Results
	if n < 1 || n > len(res) {
		return nil, fmt.Errorf("%d runs returned a result; there is no run %d", len(res), n)
	}
	msgs, ok := res[n-1]["messages"].([]any)
	if !ok {
		return nil, fmt.Errorf("run %d returned no messages (RunResult.messages): %v", n, common.ClipString(common.CompactJSON(res[n-1]["messages"]), 200))
	}
	return msgs, nil
}

// requestMessages is the messages list of LLM request n.
func (w *World) requestMessages(n int) ([]any, error) {
	bodies, err := client.Bodies(w.A)
	if err != nil {
		return nil, err
	}
	if n < 1 || n > len(bodies) {
		return nil, fmt.Errorf("the fake LLM got %d requests; there is no LLM request %d", len(bodies), n)
	}
	msgs, _ := bodies[n-1]["messages"].([]any)
	return msgs, nil
}

// startsWith: the request's messages begin with want exactly (as JSON) and then hold rest.
func (w *World) startsWith(n int, want []any, what string, rest ...string) error {
	got, err := w.requestMessages(n)
	if err != nil {
		return err
	}
	if len(got) != len(want)+len(rest) {
		return fmt.Errorf("LLM request %d has %d messages; want %s (%d) and %d more:\n%s", n, len(got), what, len(want), len(rest), common.ClipString(common.CompactJSON(got), 1500))
	}
	if a, b := common.CompactJSON(got[:len(want)]), common.CompactJSON(want); a != b {
		return fmt.Errorf("LLM request %d does not start with %s (-want +got):\n%w", n, what, kernel.DiffOf(want, got[:len(want)]))
	}
	for i, text := range rest {
		m, _ := got[len(want)+i].(map[string]any)
		if m["role"] != "user" || common.MessageText(m) != text {
			return fmt.Errorf("LLM request %d's message %d is %s; want the user message %q", n, len(want)+i+1, common.ClipString(common.CompactJSON(m), 300), text)
		}
	}
	return nil
}

func (w *World) startsWithRun(n, run int, prompt string) error {
	want, err := w.runMessages(run)
	if err != nil {
		return err
	}
	return w.startsWith(n, want, fmt.Sprintf("run %d's messages", run), prompt)
}

func (w *World) oneSystem(n int) error {
	got, err := w.requestMessages(n)
	if err != nil {
		return err
	}
	count := 0
	for _, m := range got {
		if mm, _ := m.(map[string]any); mm["role"] == "system" {
			count++
		}
	}
	if count > 1 {
		return fmt.Errorf("LLM request %d carries %d system messages; want at most one", n, count)
	}
	return nil
}

// carriesExactly: the request's non-system messages have exactly these texts, in order.
func (w *World) carriesExactly(n int, list string) error {
	got, err := w.requestMessages(n)
	if err != nil {
		return err
	}
	var texts []string
	for _, m := range got {
		if mm, _ := m.(map[string]any); mm["role"] != "system" {
			texts = append(texts, common.MessageText(m))
		}
	}
	want := common.QuotedList(list)
	for i := range want {
		if want[i], err = common.CodePoints(want[i]); err != nil {
			return err
		}
	}
	if common.CompactJSON(texts) != common.CompactJSON(want) {
		return fmt.Errorf("LLM request %d carries other messages (-want +got):\n%w", n, kernel.DiffOf(want, texts))
	}
	return nil
}

func (w *World) conversation() error {
	if err := client.EnsureClient(w.A); err != nil {
		return err
	}
	h := w.Handle("conversation")
	args := map[string]any{"handle": h, "client": w.client().Client["handle"]}
	if w.TK().Current != "" {
		args["toolkit"] = w.TK().Current
	}
	if _, err := w.Must("conversation.create", args); err != nil {
		return err
	}
	w.mem().conversation = h
	return nil
}

func (w *World) convo() (string, error) {
	if w.mem().conversation == "" {
		return "", fmt.Errorf("harness: the scenario made no conversation")
	}
	return w.mem().conversation, nil
}

func (w *World) send(prompt string) error {
	h, err := w.convo()
	if err != nil {
		return err
	}
	if prompt, err = common.CodePoints(prompt); err != nil {
		return err
	}
	r, err := w.Call("conversation.send", map[string]any{"conversation": h, "prompt": prompt})
	if err != nil {
		return err
	}
	if r.OK {
		w.client().Results = append(w.client().Results, r.Result)
	}
	return nil
}

func (w *World) reset() error {
	h, err := w.convo()
	if err != nil {
		return err
	}
	_, err = w.Must("conversation.reset", map[string]any{"conversation": h})
	return err
}

func (w *World) messages() ([]any, error) {
	h, err := w.convo()
	if err != nil {
		return nil, err
	}
	r, err := w.Must("conversation.messages", map[string]any{"conversation": h})
	if err != nil {
		return nil, err
	}
	msgs, _ := r["messages"].([]any)
	return msgs, nil
}

func (w *World) messagesEmpty() error {
	msgs, err := w.messages()
	if err != nil {
		return err
	}
	if len(msgs) > 0 {
		return fmt.Errorf("the conversation still holds %d messages after reset: %s", len(msgs), common.ClipString(common.CompactJSON(msgs), 400))
	}
	return nil
}

func (w *World) messagesAreLast() error {
	msgs, err := w.messages()
	if err != nil {
		return err
	}
	want, err := w.runMessages(len(w.client().Results))
	if err != nil {
		return err
	}
	if common.CompactJSON(msgs) != common.CompactJSON(want) {
		return fmt.Errorf("the conversation's messages are not its last send's (-want +got):\n%w", kernel.DiffOf(want, msgs))
	}
	return nil
}

// stored is the store accessor's transcript under id (nil: none).
func (w *World) stored(id string) ([]any, error) {
	r, err := w.Must("store.get", map[string]any{"client": w.client().Client["handle"], "id": id})
	if err != nil {
		return nil, err
	}
	msgs, _ := r["messages"].([]any)
	return msgs, nil
}

func (w *World) storeEmpty(list string) error {
	for _, id := range common.QuotedList(list) {
		msgs, err := w.stored(id)
		if err != nil {
			return err
		}
		if len(msgs) > 0 {
			return fmt.Errorf("the store holds %d messages under %q: %s", len(msgs), id, common.ClipString(common.CompactJSON(msgs), 400))
		}
	}
	return nil
}

func (w *World) storeHoldsLast(id string) error {
	got, err := w.stored(id)
	if err != nil {
		return err
	}
	want, err := w.runMessages(len(w.client().Results))
	if err != nil {
		return err
	}
	if common.CompactJSON(got) != common.CompactJSON(want) {
		return fmt.Errorf("the store's transcript under %q is not the last run's messages (-want +got):\n%w", id, kernel.DiffOf(want, got))
	}
	return nil
}

func (w *World) askOnText(prompt, id string) error {
	return client.AskWith(w.A, w.client().Client["handle"], prompt, map[string]any{"id": id, "onText": true})
}

func (w *World) deltasJoin() error {
	res := w.client().Results
	if len(res) == 0 {
		return fmt.Errorf("harness: no ask returned a result")
	}
	last := res[len(res)-1]
	deltas, ok := last["deltas"].([]any)
	if !ok || len(deltas) == 0 {
		return fmt.Errorf("the text callback received no delta: %s", common.ClipString(common.CompactJSON(last["deltas"]), 200))
	}
	var joined strings.Builder
	for _, d := range deltas {
		s, _ := d.(string)
		joined.WriteString(s)
	}
	if text, _ := last["text"].(string); joined.String() != text {
		return fmt.Errorf("the text callback's deltas join to %q; the ask's text is %q", joined.String(), text)
	}
	return nil
}

// secondClientAsks makes another client like the scenario's (its own default store) and asks.
func (w *World) secondClientAsks(prompt, id string) error {
	if err := client.EnsureClient(w.A); err != nil {
		return err
	}
	args := maps.Clone(w.client().Client)
	h := w.Handle("client")
	args["handle"] = h
	if _, err := w.Must("client.create", args); err != nil {
		return err
	}
	return client.AskWith(w.A, h, prompt, map[string]any{"id": id})
}

func (w *World) textFailText(a string, status int, b string) error {
	w.client().Route.Script(llmfake.Reply{Text: a}, llmfake.Reply{Status: status}, llmfake.Reply{Text: b})
	return nil
}
