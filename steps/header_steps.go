package steps

import (
	"fmt"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
)

func registerHeaderSteps(sc *kernel.Steps) {
	sc.Step(`^every LLM request carries the header "([^"]*)" equal to "([^"]*)"$`, (*World).everyRequestHeader)
	sc.Step(`^exactly one warning names "([^"]*)"$`, (*World).exactlyOneWarning)
}

// everyRequestHeader judges a header on what the fake LLM received (SPEC.md §1 headers).
func (w *World) everyRequestHeader(name, want string) error {
	reqs := w.llm().route.Requests()
	if len(reqs) == 0 {
		return fmt.Errorf("the fake LLM received no request")
	}
	for i, r := range reqs {
		got := r.Header.Values(name)
		if len(got) != 1 || got[0] != want {
			return fmt.Errorf("LLM request %d carries %s: %q; want exactly %q", i+1, name, got, want)
		}
	}
	return nil
}

// exactlyOneWarning counts the warning lines that name word (quoted, as warningsName
// requires) over the whole scenario: SPEC.md pins one warning per unknown name per load.
func (w *World) exactlyOneWarning(word string) error {
	var hits []string
	for _, l := range w.a.Warnings() {
		if strings.Contains(l, `"`+word+`"`) || strings.Contains(l, "'"+word+"'") {
			hits = append(hits, l)
		}
	}
	if len(hits) != 1 {
		return fmt.Errorf("%d warnings name %q; want exactly one. Warnings: %q", len(hits), word, w.a.Warnings())
	}
	return nil
}
