package resilience

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	llmfake "github.com/muthuishere/toolnexus-conformance/fakes/llm"
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/internal/timing"
	"github.com/muthuishere/toolnexus-conformance/steps/client"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

func registerResilienceSteps(sc *kernel.Steps) {
	sc.Step(`^the client's retries is (\d+)$`, (*World).retries)
	sc.Step(`^the client's retry base is (\d+) ms$`, (*World).retryBase)
	sc.Step(`^the client's timeout is (\d+) ms$`, (*World).timeout)
	sc.Step(`^an onError classifier that answers "(retry|fail)" for the status (\d+)$`, (*World).onErrorAnswers)
	sc.Step(`^an onError classifier that answers as the default does$`, (*World).onErrorDefault)
	sc.Step(`^the fake LLM first answers (\d+) and then answers "([^"]*)"$`, (*World).statusThenText)
	sc.Step(`^the fake LLM first answers (\d+) with the header lines? (\[.*\]|".*") and then answers "([^"]*)"$`, (*World).headersThenText)
	sc.Step(`^the fake LLM always answers (\d+)$`, (*World).alwaysStatus)
	sc.Step(`^the fake LLM answers (\d+), then (\d+), and then answers "([^"]*)"$`, (*World).twoStatusesThenText)
	sc.Step(`^the fake LLM answers only after (\d+) s$`, (*World).stall)
	sc.Step(`^the fake LLM calls the tool "([^"]*)" on every turn, each answer after (\d+) ms$`, (*World).slowTurns)
	sc.Step(`^the client runs "([^"]*)" in (run|stream) mode, cancelled after (\d+) ms$`, (*World).runCancelled)
	sc.Step(`^the client runs "([^"]*)" in (run|stream) mode, timed$`, (*World).runTimed)
	sc.Step(`^the gap before LLM request (\d+) is between (\d+) and (\d+) ms$`, (*World).gapBetween)
	sc.Step(`^the gap before LLM request (\d+) is below (\d+) ms$`, (*World).gapBelow)
	sc.Step(`^the run ended at least (\d+) ms after LLM request 1$`, (*World).endedAfter)
	sc.Step(`^the run ended within (\d+) ms of LLM request 1$`, (*World).endedWithin)
	sc.Step(`^the call fails with an error that carries the status (\d+)$`, (*World).failsWithStatus)
	sc.Step(`^the client closed LLM request (\d+) within (\d+) ms of its arrival$`, (*World).closedWithin)
	sc.Step(`^the client closed LLM request (\d+) within (\d+) ms of its arrival, where this port's cancel aborts mid-request$`, (*World).closedWithinIfMidRequest)
	sc.Step(`^the onError classifier was given, in order, (\[.*\])$`, (*World).onErrorGiven)
	sc.Step(`^the onError classifier was first given, in order, (\[.*\])$`, (*World).onErrorFirstGiven)
	sc.Step(`^the onError classifier was never called$`, (*World).onErrorNever)
	sc.Step(`^onError call (\d+) was given an error and no status$`, (*World).onErrorTransport)
}

func (w *World) retries(n int) error { return kernel.SetOption(w.A, "client.create", "retries", n) }
func (w *World) retryBase(n int) error {
	return kernel.SetOption(w.A, "client.create", "retryBaseMs", n)
}
func (w *World) timeout(n int) error { return kernel.SetOption(w.A, "client.create", "timeoutMs", n) }
func (w *World) onErrorDefault() error {
	return kernel.SetOption(w.A, "client.create", "onError", true)
}
func (w *World) alwaysStatus(n int) error {
	w.client().Route.Always(llmfake.Reply{Status: n})
	return nil
}

func (w *World) onErrorAnswers(tier string, status int) error {
	w.rs().answers[status] = tier
	return w.onErrorDefault()
}

func (w *World) twoStatusesThenText(a, b int, text string) error {
	w.client().Route.Script(llmfake.Reply{Status: a}, llmfake.Reply{Status: b}, llmfake.Reply{Text: text})
	return nil
}

func (w *World) statusThenText(status int, text string) error {
	w.client().Route.Script(llmfake.Reply{Status: status}, llmfake.Reply{Text: text})
	return nil
}

// headersThenText scripts an error answer with header lines sent byte for byte: one JSON
// string, or a JSON array of them.
func (w *World) headersThenText(status int, raw, text string) error {
	var lines []string
	if strings.HasPrefix(raw, "[") {
		if err := common.StepJSON(raw, &lines); err != nil {
			return fmt.Errorf("harness: %s is not a JSON array of strings: %w", raw, err)
		}
	} else {
		var one string
		if err := common.StepJSON(raw, &one); err != nil {
			return fmt.Errorf("harness: %s is not a JSON string: %w", raw, err)
		}
		lines = []string{one}
	}
	for i, l := range lines {
		var err error
		if lines[i], err = common.CodePoints(l); err != nil { // spaces a table cell would trim: ⟨U+0020⟩
			return err
		}
		l = lines[i]
		if strings.ContainsAny(l, "\r\n") || !strings.Contains(l, ":") {
			return fmt.Errorf("harness: %q is not one header line (name: value, no CR or LF)", l)
		}
	}
	w.client().Route.Script(llmfake.Reply{Status: status, HeaderLines: lines}, llmfake.Reply{Text: text})
	return nil
}

func (w *World) stall(s int) error {
	w.client().Route.Script(llmfake.Reply{Text: "late", Delay: time.Duration(s) * time.Second})
	return nil
}

// slowTurns: every answer calls tool and arrives n ms late, each well inside a deadline the
// turns together pass.
func (w *World) slowTurns(tool string, n int) error {
	w.client().Route.Always(llmfake.Reply{ToolCalls: []llmfake.ToolCall{{Name: tool}}, Delay: ms(n)})
	return nil
}

func (w *World) runCancelled(prompt, mode string, n int) error {
	w.rs().mode, w.rs().cancelAfter = mode, ms(n)
	return w.timed(func() error { return client.RunWith(w.A, prompt, mode, map[string]any{"cancelAfterMs": n}) })
}

func (w *World) runTimed(prompt, mode string) error {
	w.rs().mode, w.rs().cancelAfter = mode, 0
	return w.timed(func() error { return client.RunWith(w.A, prompt, mode, nil) })
}

// timed notes when the call returned, on the runner's clock, which the fake LLM shares.
func (w *World) timed(run func() error) error {
	w.rs().started = time.Now()
	err := run()
	w.rs().ended = time.Now()
	return err
}

// gap is the time between LLM requests n-1 and n, by the fake's arrival stamps.
func (w *World) gap(n int) (time.Duration, error) {
	reqs := w.client().Route.Requests()
	if n < 2 || n > len(reqs) {
		return 0, fmt.Errorf("the fake LLM got %d requests; there is no LLM request %d after a first", len(reqs), n)
	}
	return reqs[n-1].At.Sub(reqs[n-2].At), nil
}

func (w *World) gapBetween(n, lo, hi int) error {
	d, err := w.gap(n)
	if err != nil {
		return err
	}
	if d < ms(lo)-timing.TimerGrain || d >= ms(hi) {
		return fmt.Errorf("LLM request %d came %d ms after request %d, by the fake's clock; want [%d, %d) ms (less a %d ms timer grain below)", n, d.Milliseconds(), n-1, lo, hi, timing.TimerGrain.Milliseconds())
	}
	return nil
}

func (w *World) gapBelow(n, hi int) error {
	d, err := w.gap(n)
	if err != nil {
		return err
	}
	if d >= ms(hi) {
		return fmt.Errorf("LLM request %d came %d ms after request %d, by the fake's clock; want below %d ms", n, d.Milliseconds(), n-1, hi)
	}
	return nil
}

// sinceFirst is how long after LLM request 1 arrived the timed run returned.
func (w *World) sinceFirst() (time.Duration, error) {
	reqs := w.client().Route.Requests()
	if len(reqs) == 0 && w.rs().cancelAfter > 0 {
		// The cancel came before the port sent anything (a slow start under load): the
		// scenario's premise, a request to wait on, was never reached.
		return 0, &kernel.Inconclusive{Why: fmt.Sprintf("the fake LLM got no request before the cancel at %d ms: the port never reached the wait", w.rs().cancelAfter.Milliseconds())}
	}
	if len(reqs) == 0 {
		return 0, fmt.Errorf("the fake LLM got no request")
	}
	if w.rs().ended.IsZero() {
		return 0, fmt.Errorf("harness: no timed run")
	}
	return w.rs().ended.Sub(reqs[0].At), nil
}

func (w *World) endedAfter(lo int) error {
	d, err := w.sinceFirst()
	if err != nil {
		return err
	}
	// A cancel that fired less than lo after request 1 (the port sent it late) leaves no room
	// to tell a wait from an early stop: nothing to judge, not the port's failure.
	if c := w.rs().cancelAfter; c > 0 {
		if room := w.rs().started.Add(c).Sub(w.client().Route.Requests()[0].At); room < ms(lo) {
			return &kernel.Inconclusive{Why: fmt.Sprintf("LLM request 1 came %d ms after the run began, so its cancel at %d ms left %d ms to wait; at least %d ms are needed to tell a wait from an early stop",
				w.client().Route.Requests()[0].At.Sub(w.rs().started).Milliseconds(), c.Milliseconds(), room.Milliseconds(), lo)}
		}
	}
	if d < ms(lo)-timing.TimerGrain {
		return fmt.Errorf("the run ended %d ms after LLM request 1; want at least %d ms (less a %d ms timer grain)", d.Milliseconds(), lo, timing.TimerGrain.Milliseconds())
	}
	return nil
}

func (w *World) endedWithin(hi int) error {
	d, err := w.sinceFirst()
	if err != nil {
		return err
	}
	if d >= ms(hi) {
		return fmt.Errorf("the run ended %d ms after LLM request 1; want within %d ms", d.Milliseconds(), hi)
	}
	return nil
}

// closedWithin: the abort reached the wire. The fake's own clock says when the client closed
// the stalled request (§8: the signal is "threaded into the HTTP request, so a timeout or
// external cancel aborts the in-flight call"); a port that only stops waiting leaves it open
// until the fake answers.
func (w *World) closedWithin(n, hi int) error {
	var d time.Duration
	// The close may reach the fake a moment after the run returned.
	common.WaitFor(time.Second, func() bool {
		if reqs := w.client().Route.Requests(); len(reqs) >= n {
			d = reqs[n-1].GaveUpAfter
		}
		return d > 0
	})
	switch reqs := w.client().Route.Requests(); {
	case len(reqs) < n:
		return fmt.Errorf("the fake LLM got %d requests; there is no LLM request %d", len(reqs), n)
	case d == 0:
		return fmt.Errorf("the client never closed LLM request %d: the run stopped waiting, but the call in flight was not aborted (the fake answered it at the end of its stall)", n)
	case d >= ms(hi):
		return fmt.Errorf("the client closed LLM request %d only %d ms after it arrived; want within %d ms", n, d.Milliseconds(), hi)
	}
	return nil
}

// closedWithinIfMidRequest: upstream SPEC §7D tables each port's cancel; where it is
// cooperative ("between attempts"), or its seam does not name this mode (js: "AbortSignal on
// run/ask"), the run's prompt end, checked before, is the guarantee and a blocked request
// may finish in the background.
func (w *World) closedWithinIfMidRequest(n, hi int) error {
	var c cancelFact
	if _, err := common.Fact(w.A, "cancel", &c); err != nil {
		return err
	}
	if c.Guarantee != "mid-request" || !c.covers(w.rs().mode) {
		return nil
	}
	if err := w.closedWithin(n, hi); err != nil {
		return fmt.Errorf("%w (this port's cancel aborts mid-request: %s)", err, c.Fact)
	}
	return nil
}

// failsWithStatus: the run failed, and its error (or one it wraps) names the status as a
// number of its own.
func (w *World) failsWithStatus(status int) error {
	r := w.Last()
	if r == nil {
		return fmt.Errorf("harness: no call was made")
	}
	if r.OK {
		return fmt.Errorf("%s succeeded; want an error carrying the status %d", w.LastOp(), status)
	}
	re := regexp.MustCompile(fmt.Sprintf(`(^|\D)%d(\D|$)`, status))
	texts := []string{r.Error.Message}
	for _, e := range r.Error.Chain {
		texts = append(texts, e.Message)
	}
	for _, t := range texts {
		if re.MatchString(t) {
			return nil
		}
	}
	return fmt.Errorf("%s failed, but no error in its chain names the status %d: %q", w.LastOp(), status, common.ClipString(strings.Join(texts, " | "), 400))
}

// onErrorCalls is what onError was given, over every request of the attempt (a failed run
// included), in order.
func (w *World) onErrorCalls() []map[string]any {
	var out []map[string]any
	for _, r := range w.A.Requests() {
		for _, c := range r.Slots {
			if c.Slot == "resilience.onError" {
				out = append(out, c.Decode())
			}
		}
	}
	return out
}

// onErrorGiven: as many calls as listed, each holding the listed keys with those values.
func (w *World) onErrorGiven(raw string) error { return w.onErrorMatch(raw, true) }

// onErrorFirstGiven: at least as many calls as listed, the first ones as listed.
func (w *World) onErrorFirstGiven(raw string) error { return w.onErrorMatch(raw, false) }

func (w *World) onErrorMatch(raw string, exact bool) error {
	var want []map[string]any
	if err := common.StepJSON(raw, &want); err != nil {
		return fmt.Errorf("harness: %s is not a JSON array of objects: %w", raw, err)
	}
	got := w.onErrorCalls()
	if len(got) < len(want) || exact && len(got) != len(want) {
		return fmt.Errorf("onError was called %d times; want %d. It was given %s", len(got), len(want), common.CompactJSON(got))
	}
	for i := range want {
		if miss := common.Includes(want[i], got[i]); miss != "" {
			return fmt.Errorf("onError call %d differs at %s: it was given %s, want %s", i+1, miss, common.CompactJSON(got[i]), common.CompactJSON(want[i]))
		}
	}
	return nil
}

func (w *World) onErrorNever() error {
	if got := w.onErrorCalls(); len(got) > 0 {
		return fmt.Errorf("onError was called %d times: %s", len(got), common.CompactJSON(got))
	}
	return nil
}

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

// onErrorTransport: a transport failure reaches onError as an error, with no HTTP status.
func (w *World) onErrorTransport(n int) error {
	got := w.onErrorCalls()
	if n < 1 || n > len(got) {
		return fmt.Errorf("onError was called %d times; there is no call %d", len(got), n)
	}
	c := got[n-1]
	if e, _ := c["error"].(string); e == "" {
		return fmt.Errorf("onError call %d was given no error: %s", n, common.CompactJSON(c))
	}
	if s, ok := c["status"]; ok && s != nil {
		return fmt.Errorf("onError call %d was given the status %v for a transport failure", n, s)
	}
	return nil
}
