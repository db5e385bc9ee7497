package steps

import (
	"fmt"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

func registerOutcomeSteps(sc *kernel.Steps) {
	sc.Step(`^the call succeeds$`, common.CallSucceeds)
	sc.Step(`^the call fails with kind "([^"]*)"$`, (*World).callFailsWith)
	sc.Step(`^the call fails with this port's deadline error$`, (*World).callFailsWithDeadline)
	sc.Step(`^the warnings name "([^"]*)"$`, (*World).warningsName)
	sc.Step(`^no warning names "([^"]*)"$`, (*World).noWarningNames)
	sc.Step(`^the recording HTTP client carried every LLM request$`, (*World).recorderCarriedAll)
	sc.Step(`^the run made (\d+) LLM requests?$`, (*World).llmRequestCount)
}

func (w *World) callFailsWith(kind string) error {
	if w.last() == nil {
		return fmt.Errorf("harness: no call was made")
	}
	if w.last().OK {
		return fmt.Errorf("%s succeeded; want an error of kind %q (result %v)", w.lastOp(), kind, w.last().Result)
	}
	if w.last().Error.Kind != kind {
		return fmt.Errorf("%s failed with kind %q (%s); want %q", w.lastOp(), w.last().Error.Kind, w.last().Error.Message, kind)
	}
	return nil
}

func (w *World) warningsName(word string) error {
	for _, l := range w.a.Warnings() {
		if strings.Contains(l, `"`+word+`"`) || strings.Contains(l, "'"+word+"'") {
			return nil
		}
	}
	return fmt.Errorf("no warning names %q; warnings were: %q", word, w.a.Warnings())
}

func (w *World) noWarningNames(word string) error {
	for _, l := range w.a.Warnings() {
		if strings.Contains(l, word) {
			return fmt.Errorf("a warning names %q: %q", word, l)
		}
	}
	return nil
}

// recorderCarriedAll compares the adapter's recording client count with what the fake saw.
func (w *World) recorderCarriedAll() error {
	seen := len(w.llm().route.Requests())
	if seen == 0 {
		return fmt.Errorf("the fake LLM saw no request")
	}
	carried := 0
	for _, r := range w.ranRequests() {
		for _, c := range r.Slots {
			if c.Slot == "http" {
				carried++
			}
		}
	}
	if carried != seen {
		return fmt.Errorf("the recording HTTP client carried %d requests; the fake LLM received %d", carried, seen)
	}
	return nil
}

func (w *World) llmRequestCount(n int) error {
	if got := len(w.llm().route.Requests()); got != n {
		return fmt.Errorf("the fake LLM received %d requests; want %d", got, n)
	}
	return nil
}
