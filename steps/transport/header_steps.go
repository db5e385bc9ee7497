package transport

import (
	"fmt"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/client"
)

func registerHeaderSteps(sc *kernel.Steps) {
	sc.Step(`^a recording HTTP client$`, (*World).recordingHTTP)
	sc.Step(`^the recording HTTP client carried every LLM request$`, (*World).recorderCarriedAll)
	sc.Step(`^every LLM request carries the header "([^"]*)" equal to "([^"]*)"$`, (*World).everyRequestHeader)
	sc.Step(`^exactly one warning names "([^"]*)"$`, (*World).exactlyOneWarning)
}

// everyRequestHeader judges a header on what the fake LLM received (SPEC.md §1 headers).
func (w *World) everyRequestHeader(name, want string) error {
	reqs := w.client().Route.Requests()
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
	for _, l := range w.A.Warnings() {
		if strings.Contains(l, `"`+word+`"`) || strings.Contains(l, "'"+word+"'") {
			hits = append(hits, l)
		}
	}
	if len(hits) != 1 {
		return fmt.Errorf("%d warnings name %q; want exactly one. Warnings: %q", len(hits), word, w.A.Warnings())
	}
	return nil
}

// recorderCarriedAll compares the adapter's recording client count with what the fake saw.
func (w *World) recorderCarriedAll() error {
	seen := len(w.client().Route.Requests())
	if seen == 0 {
		return fmt.Errorf("the fake LLM saw no request")
	}
	carried := 0
	for _, r := range client.RanRequests(w.A) {
		for _, c := range r.Slots {
			if c.Slot == "transport.http" {
				carried++
			}
		}
	}
	if carried != seen {
		return fmt.Errorf("the recording HTTP client carried %d requests; the fake LLM received %d", carried, seen)
	}
	return nil
}

// recordingHTTP injects the host's HTTP client: the adapter builds one that calls the
// transport.http slot for every request (ADR gap 2).
func (w *World) recordingHTTP() error {
	return kernel.SetOption(w.A, "client.create", "httpClient", "recording")
}
