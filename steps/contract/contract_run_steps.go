package contract

import (
	"fmt"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/client"
	"github.com/muthuishere/toolnexus-conformance/steps/common"

	"github.com/cucumber/godog"
)

// Steps on what a run gave back and what it fed back to the model, for the contract's loop
// claims (C4.13, C7.2, C7.4, C8.14).
func registerContractRunSteps(sc *kernel.Steps) {
	sc.Step(`^the run's final text is "([^"]*)"$`, (*World).runFinalText)
	sc.Step(`^the run's tool call (\d+) has the metadata (.+)$`, (*World).runCallMetadata)
	sc.Step(`^the tool result sent back in LLM request (\d+) is exactly "([^"]*)"$`, (*World).toolResultSentBack)
	sc.Step(`^the tool result sent back in LLM request (\d+) is exactly:$`, (*World).toolResultSentBackDoc)
	sc.Step(`^the tool result sent back in LLM request (\d+) is exactly, with ⟨U\+XXXX⟩ standing for that code point:$`, (*World).toolResultSentBackCodePoints)
}

func (w *World) lastRun() (map[string]any, error) {
	if err := common.CallSucceeds(w.A); err != nil {
		return nil, err
	}
	if len(w.client().Results) == 0 {
		return nil, fmt.Errorf("harness: no run result")
	}
	return w.client().Results[len(w.client().Results)-1], nil
}

func (w *World) runFinalText(want string) error {
	r, err := w.lastRun()
	if err != nil {
		return err
	}
	if r["text"] != want {
		return fmt.Errorf("the run's text is %s; want %q", common.CompactJSON(r["text"]), want)
	}
	return nil
}

func (w *World) runCallMetadata(n int, raw string) error {
	r, err := w.lastRun()
	if err != nil {
		return err
	}
	calls, _ := r["calls"].([]any)
	if n < 1 || n > len(calls) {
		return fmt.Errorf("the run reports %d tool calls (%s); there is no call %d", len(calls), common.CompactJSON(r["calls"]), n)
	}
	call, _ := calls[n-1].(map[string]any)
	return common.SameJSON(fmt.Sprintf("tool call %d's metadata", n), raw, call["metadata"])
}

// toolResults is every tool result in one request body, in order: openai's tool messages and
// anthropic's tool_result blocks (a block's content is a string or a list of text blocks).
func toolResults(body map[string]any) []string {
	msgs, _ := body["messages"].([]any)
	var out []string
	for _, r := range common.ToolResults(msgs) {
		out = append(out, r.Content)
	}
	return out
}

func (w *World) toolResultSentBack(n int, want string) error {
	body, err := client.Body(w.A, n)
	if err != nil {
		return err
	}
	got := toolResults(body)
	if len(got) != 1 || got[0] != want {
		return fmt.Errorf("LLM request %d sends back the tool results %s; want exactly one, %s", n, common.CompactJSON(got), common.CompactJSON(want))
	}
	return nil
}

func (w *World) toolResultSentBackDoc(n int, doc *godog.DocString) error {
	return w.toolResultSentBack(n, doc.Content)
}

func (w *World) toolResultSentBackCodePoints(n int, doc *godog.DocString) error {
	want, err := common.CodePoints(doc.Content)
	if err != nil {
		return err
	}
	return w.toolResultSentBack(n, want)
}
