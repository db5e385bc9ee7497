package transport

import (
	"fmt"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/common"

	llmfake "github.com/muthuishere/toolnexus-conformance/fakes/llm"
)

// Steps for retries and timeouts through the injected client: a port that keeps only the
// host client's transport loses the client's own settings (ADR gap 2 hands over the client).
func registerRetrySteps(sc *kernel.Steps) {
	sc.Step(`^the fake LLM first fails with (a 503|a 429|a dropped connection) and then answers "([^"]*)"$`, (*World).scriptFaultThenText)
	sc.Step(`^the fake LLM saw the request retried$`, (*World).sawRetry)
	sc.Step(`^a recording HTTP client with its own request timeout of (\d+) ms$`, (*World).recordingHTTPWithTimeout)
	sc.Step(`^the fake LLM first answers after (\d+) ms and then answers "([^"]*)"$`, (*World).scriptSlowThenText)
	sc.Step(`^the client gave up on LLM request (\d+) within (\d+) ms$`, (*World).gaveUpWithin)
}

// scriptFaultThenText makes the first answer a transient failure a client retries (SPEC §8:
// 429, 5xx, a network error); Retry-After 0 asks for the retry at once.
func (w *World) scriptFaultThenText(fault, text string) error {
	first := llmfake.Reply{Drop: true}
	switch fault {
	case "a 503":
		first = llmfake.Reply{Status: 503, RetryAfter: "0"}
	case "a 429":
		first = llmfake.Reply{Status: 429, RetryAfter: "0"}
	}
	w.client().Route.Script(first, llmfake.Reply{Text: text})
	return nil
}

// sawRetry is the premise of a retry scenario: a port that does not retry proves nothing
// about which client carries a retry.
func (w *World) sawRetry() error {
	if n := len(w.client().Route.Requests()); n < 2 {
		return &kernel.Inconclusive{Why: fmt.Sprintf("the fake LLM got %d request: the port never retried the failed one", n)}
	}
	return nil
}

// recordingHTTPWithTimeout injects a client that carries a setting of its own: a port that
// keeps only its transport loses it (ADR gap 2 hands over the client, not a transport).
func (w *World) recordingHTTPWithTimeout(ms int) error {
	if err := w.recordingHTTP(); err != nil {
		return err
	}
	return kernel.SetOption(w.A, "client.create", "httpTimeoutMs", ms)
}

func (w *World) scriptSlowThenText(ms int, text string) error {
	w.client().Route.Script(llmfake.Reply{Text: "too late", Delay: time.Duration(ms) * time.Millisecond}, llmfake.Reply{Text: text})
	return nil
}

// gaveUpWithin judges, on the fake's clock, when the client closed a slow request.
func (w *World) gaveUpWithin(n, ms int) error {
	var d time.Duration
	// The close may reach the fake a moment after the run returned.
	common.WaitFor(time.Second, func() bool {
		reqs := w.client().Route.Requests()
		if len(reqs) >= n {
			d = reqs[n-1].GaveUpAfter
		}
		return d > 0
	})
	reqs := w.client().Route.Requests()
	switch {
	case len(reqs) < n:
		return fmt.Errorf("the fake LLM got %d requests; want at least %d", len(reqs), n)
	case d == 0:
		return fmt.Errorf("the client waited for the answer to LLM request %d: its own client's timeout was not applied", n)
	case d > time.Duration(ms)*time.Millisecond:
		return fmt.Errorf("the client gave up on LLM request %d only after %s; want within %d ms", n, d.Round(time.Millisecond), ms)
	}
	return nil
}
