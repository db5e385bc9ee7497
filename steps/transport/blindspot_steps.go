package transport

import (
	"fmt"
	"strings"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
	"github.com/muthuishere/toolnexus-conformance/steps/llm"
	"github.com/muthuishere/toolnexus-conformance/steps/mcp"

	llmfake "github.com/muthuishere/toolnexus-conformance/fakes/llm"
	mcpfake "github.com/muthuishere/toolnexus-conformance/fakes/mcp"
	"github.com/muthuishere/toolnexus-conformance/internal/timing"
)

// Steps for what a port can get wrong that the plain paths do not show: retries through the
// injected client, base URLs that already carry /v1 or a slash, a teardown that is still
// under way when the call returns.
func registerBlindSpotSteps(sc *kernel.Steps) {
	sc.Step(`^the fake LLM first fails with (a 503|a 429|a dropped connection) and then answers "([^"]*)"$`, (*World).scriptFaultThenText)
	sc.Step(`^the fake LLM saw the request retried$`, (*World).sawRetry)
	sc.Step(`^a recording HTTP client with its own request timeout of (\d+) ms$`, (*World).recordingHTTPWithTimeout)
	sc.Step(`^the fake LLM first answers after (\d+) ms and then answers "([^"]*)"$`, (*World).scriptSlowThenText)
	sc.Step(`^the client gave up on LLM request (\d+) within (\d+) ms$`, (*World).gaveUpWithin)
	sc.Step(`^an? (openai|anthropic) client whose base URL ends in "([^"]*)"$`, (*World).clientWithBaseSuffix)
	sc.Step(`^every LLM request went to "([^"]*)" under the fake's route$`, (*World).everyRequestWentTo)
	sc.Step(`^the last LLM request does not carry the message "([^"]*)"$`, (*World).lastRequestLacks)
	sc.Step(`^the stdio server of "([^"]*)" was already gone when the call returned$`, (*World).goneAtReturn)
	sc.Step(`^the stdio server of "([^"]*)" was never started$`, (*World).neverStarted)
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
	w.llm().Route.Script(first, llmfake.Reply{Text: text})
	return nil
}

// sawRetry is the premise of a retry scenario: a port that does not retry proves nothing
// about which client carries a retry.
func (w *World) sawRetry() error {
	if n := len(w.llm().Route.Requests()); n < 2 {
		return &kernel.Inconclusive{Why: fmt.Sprintf("the fake LLM got %d request: the port never retried the failed one", n)}
	}
	return nil
}

// recordingHTTPWithTimeout injects a client that carries a setting of its own: a port that
// keeps only its transport loses it (ADR gap 2 hands over the client, not a transport).
func (w *World) recordingHTTPWithTimeout(ms int) error {
	if err := w.RecordingHTTP(); err != nil {
		return err
	}
	return w.SetClient("httpTimeoutMs", ms)
}

func (w *World) scriptSlowThenText(ms int, text string) error {
	w.llm().Route.Script(llmfake.Reply{Text: "too late", Delay: time.Duration(ms) * time.Millisecond}, llmfake.Reply{Text: text})
	return nil
}

// gaveUpWithin judges, on the fake's clock, when the client closed a slow request.
func (w *World) gaveUpWithin(n, ms int) error {
	var d time.Duration
	// The close may reach the fake a moment after the run returned.
	common.WaitFor(time.Second, func() bool {
		reqs := w.llm().Route.Requests()
		if len(reqs) >= n {
			d = reqs[n-1].GaveUpAfter
		}
		return d > 0
	})
	reqs := w.llm().Route.Requests()
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

func (w *World) clientWithBaseSuffix(style, suffix string) error {
	if err := w.AClient(style); err != nil {
		return err
	}
	w.llm().Client["baseUrl"] = w.llm().Route.BaseURL() + suffix
	return nil
}

// everyRequestWentTo checks each recorded request's path below the route prefix.
func (w *World) everyRequestWentTo(path string) error {
	reqs := w.llm().Route.Requests()
	if len(reqs) == 0 {
		return fmt.Errorf("the fake LLM got no request")
	}
	for i, r := range reqs {
		if got := strings.TrimPrefix(r.Path, w.llm().Route.Prefix()); got != path {
			return fmt.Errorf("LLM request %d went to %q under the route; want %q", i+1, got, path)
		}
	}
	return nil
}

func (w *World) lastRequestLacks(text string) error {
	bodies, err := llm.Bodies(w.A)
	if err != nil {
		return err
	}
	msgs, _ := bodies[len(bodies)-1]["messages"].([]any)
	for i, m := range msgs {
		if strings.Contains(common.MessageText(m), text) {
			return fmt.Errorf("message %d of the last LLM request still carries %q: %q", i+1, text, common.MessageText(m))
		}
	}
	return nil
}

// goneAtReturn judges the stdio child as the fakes saw it the moment the call's answer
// arrived (snapshotted by the MCP action, mcp_state.go), with no grace: a call that says it
// disconnected before returning must not leave its teardown still running.
func (w *World) goneAtReturn(name string) error {
	path, ok := w.mcp().PIDFiles[name]
	if !ok {
		return fmt.Errorf("harness: %q is not a stdio server of this scenario", name)
	}
	pid, err := common.ReadPID(path)
	if err != nil {
		return &kernel.Inconclusive{Why: fmt.Sprintf("the stdio server of %q never started (no PID file)", name)}
	}
	alive, seen := w.mcp().AliveAtReturn[name]
	if !seen {
		return fmt.Errorf("the stdio server of %q (pid %d) was started only after %s returned", name, pid, w.LastOp())
	}
	if alive {
		return fmt.Errorf("the stdio server of %q (pid %d) was still running when %s returned (gone %s later: %v)",
			name, pid, w.LastOp(), timing.ExitGrace, kernel.Get[mcp.World](w.A).Settle(func() bool { return mcpfake.ProcessGone(pid) }))
	}
	return nil
}

func (w *World) neverStarted(name string) error {
	path, ok := w.mcp().PIDFiles[name]
	if !ok {
		return fmt.Errorf("harness: %q is not a stdio server of this scenario", name)
	}
	if pid, err := common.ReadPID(path); err == nil {
		return fmt.Errorf("the stdio server of %q was started (pid %d); want no child process for it", name, pid)
	}
	return nil
}
