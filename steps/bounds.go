package steps

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/cucumber/godog"

	"github.com/muthuishere/toolnexus-conformance/fakes/faults"
	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/internal/timing"
)

// Judging at the bound (SPEC.md §3; the policy is internal/timing). The scenario's tags
// declare the bound, the steps register the stalls as they set them up, and the assertion
// steps check that what they assert is what was declared.

// bounds is one scenario's pinned timing: what it declares, and the waits it cannot avoid.
type bounds struct {
	declared timing.Declared
	// asserted records which declared bound a step asserted (its tag), so a declaration no
	// step asserts is found.
	asserted map[string]bool
	stalls   map[string]time.Duration // server name -> how long its fake stalls (timing.Forever: never answers)
	// reach is, for each stalled server whose stall the client can be seen to reach, the
	// phase it stalls in: what a quick attempt's premise checks (quick.go).
	reach map[string]string
	slow  map[string]*faults.Slow
	floor time.Duration // sum of the unavoidable waits of the calls made so far
}

// Misdeclared is a scenario at fault, not the port: its timing tags disagree with its steps.
// The run reports it as a harness error at the scenario's file:line (result.Outcome.Harness).
type Misdeclared struct{ Why string }

func (e *Misdeclared) Error() string { return "harness: " + e.Why }

func newBounds(s *godog.Scenario) (bounds, error) {
	var tags []string
	for _, t := range s.Tags {
		tags = append(tags, strings.TrimPrefix(t.Name, "@"))
	}
	d, err := timing.Parse(tags)
	if err != nil {
		return bounds{}, &Misdeclared{err.Error()}
	}
	return bounds{declared: d, asserted: map[string]bool{}, stalls: map[string]time.Duration{},
		reach: map[string]string{}, slow: map[string]*faults.Slow{}}, nil
}

// stallsFor records that the fake behind server name stalls for d (timing.Forever: never
// answers).
func (w *World) stallsFor(name string, d time.Duration) { w.bounds.stalls[name] = d }

// stallsIn is stallsFor for a fake whose stall the client can be seen to reach: it stalls in
// phase until something ends it.
func (w *World) stallsIn(name, phase string, d time.Duration) {
	w.stallsFor(name, d)
	w.bounds.reach[name] = phase
}

// pin works out, for an MCP call about to be sent with the caller's limit, the bound it must
// meet and its floor (timing.Declared.Bound): each enabled stalled server of the config holds
// the call for its stall, or for its own timeout when that is sooner.
func (w *World) pin(limit time.Duration) (bound, floor time.Duration) {
	var stalls []time.Duration
	for name, d := range w.bounds.stalls {
		cfg, ok := w.mcp.servers[name]
		if !ok {
			continue
		}
		if ms, ok := cfg["timeout"].(int); ok && time.Duration(ms)*time.Millisecond < d {
			d = time.Duration(ms) * time.Millisecond
		}
		if enabled, ok := cfg["enabled"].(bool); ok && !enabled {
			continue
		}
		stalls = append(stalls, d)
	}
	return w.bounds.declared.Bound(limit, stalls)
}

// callBounded is call with the scenario's pinned bound: when no answer comes within
// bound + BoundMargin the adapter is abandoned (killed and marked broken, so the pool
// replaces it) and the scenario fails with what the fakes saw so far.
func (w *World) callBounded(op string, args map[string]any, bound, floor time.Duration) (*adapter.Response, error) {
	w.bounds.floor += floor
	if bound <= 0 {
		return w.call(op, args)
	}
	// The bound is the call's, not the wait for a process: take one (a replacement may still
	// be starting) before the clock starts.
	if _, err := w.adapter(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(w.ctx, bound+timing.BoundMargin)
	defer cancel()
	scenarioCtx := w.ctx
	w.ctx = ctx
	r, err := w.call(op, args)
	w.ctx = scenarioCtx
	var broken *adapter.Broken
	if err != nil && errors.As(err, &broken) && ctx.Err() != nil && scenarioCtx.Err() == nil {
		// The port's own failure on a bounded scenario, not an adapter fault: the process is
		// replaced, but the breaker does not count it (suite.BreakerThreshold).
		w.lease.cutAtBound = true
		w.waited += bound + timing.BoundMargin
		return nil, fmt.Errorf("%s: no answer within %s (the pinned bound %s + margin %s); the adapter was killed and is replaced for the next scenario\nthe fakes saw: %s",
			op, bound+timing.BoundMargin, bound, timing.BoundMargin, w.fakesSaw())
	}
	return r, err
}

// fakesSaw summarises what this scenario's fakes recorded, for a call cut off at its bound.
func (w *World) fakesSaw() string {
	var parts []string
	for name, h := range w.mcp.hangs {
		parts = append(parts, fmt.Sprintf("%q accepted %d connections, %d still open", name, h.Accepted(), h.Open()))
	}
	for name, h := range w.mcp.http {
		parts = append(parts, fmt.Sprintf("%q accepted %d connections, %d still open", name, h.Connections(), h.Open()))
	}
	for name, f := range w.mcp.fallback {
		parts = append(parts, fmt.Sprintf("%q got %d POSTs and %d SSE GETs", name, f.Posts(), f.SSEGets()))
	}
	for name, s := range w.bounds.slow {
		parts = append(parts, fmt.Sprintf("%q got %d requests", name, s.Requests()))
	}
	for name, path := range w.mcp.pidFiles {
		if pid, err := readPID(path); err == nil {
			parts = append(parts, fmt.Sprintf("stdio %q started (pid %d)", name, pid))
		} else {
			parts = append(parts, fmt.Sprintf("stdio %q never started", name))
		}
	}
	sort.Strings(parts)
	parts = append(parts, fmt.Sprintf("the fake LLM got %d requests", len(w.route.Requests())))
	return strings.Join(parts, "; ")
}

// The steps that assert a declared bound. Each takes its number from the step as godog
// passes it and checks it against the scenario's tag: the bound the runner waited for must
// be the one the step asserts.
func (w *World) registerTimingSteps(sc stepAdder) {
	sc.Step(`^the call returns within (\d+) ms$`, w.callWithin)
	sc.Step(`^the call returns within (\d+) ms of the caller's limit$`, w.callWithinLimit)
	sc.Step(`^the call returns within (\d+) ms of the server's timeout$`, w.withinTimeout)
}

// declares checks that the scenario declared @<tag><ms>, as the step asserting it says.
func (w *World) declares(tag string, declared time.Duration, ms int) error {
	w.bounds.asserted[tag] = true
	if want := time.Duration(ms) * time.Millisecond; declared != want {
		got := "declares none"
		if declared > 0 {
			got = fmt.Sprintf("declares @%s%d", tag, declared/time.Millisecond)
		}
		return &Misdeclared{fmt.Sprintf("the step asserts a bound of %d ms, but the scenario %s (tag it @%s%d: the runner waits for the declared bound)",
			ms, got, tag, ms)}
	}
	return nil
}

// callWithin is used only where the ADR pins a bound (a cancel returns in well under 2 s).
func (w *World) callWithin(ms int) error {
	if err := w.declares(timing.TagWithin, w.bounds.declared.Within, ms); err != nil {
		return err
	}
	return w.returnedWithin(time.Duration(ms) * time.Millisecond)
}

// callWithinLimit bounds the last call by its caller's cancel or deadline, as sent (a quick
// first attempt cuts it, quick.go), plus ms.
func (w *World) callWithinLimit(ms int) error {
	if err := w.declares(timing.TagWithinLimit, w.bounds.declared.WithinLimit, ms); err != nil {
		return err
	}
	if w.lastLimit <= 0 {
		return fmt.Errorf("harness: the last call had no cancel or deadline")
	}
	return w.returnedWithin(w.lastLimit + time.Duration(ms)*time.Millisecond)
}

// withinTimeout bounds a call by the largest per-server timeout of the scenario plus slack.
func (w *World) withinTimeout(slack int) error {
	if err := w.declares(timing.TagWithinTimeout, w.bounds.declared.WithinTimeout, slack); err != nil {
		return err
	}
	longest := 0
	for _, ms := range w.mcp.timeouts {
		longest = max(longest, ms)
	}
	if longest == 0 {
		return fmt.Errorf("harness: no server of this scenario has a timeout")
	}
	return w.returnedWithin(time.Duration(longest+slack) * time.Millisecond)
}

func (w *World) returnedWithin(limit time.Duration) error {
	if w.last == nil {
		return fmt.Errorf("harness: no call was made")
	}
	if w.lastElapsed > limit {
		return fmt.Errorf("%s took %s; the ADR bound is %s", w.lastOp, w.lastElapsed.Round(time.Millisecond), limit)
	}
	return nil
}

// unasserted says what the scenario declared that none of its steps asserted (a stale tag
// would pin a bound nothing checks); "" when all was. Asked of an attempt that passed, whose
// every step ran.
func (w *World) unasserted() string {
	d := w.bounds.declared
	for _, b := range []struct {
		tag string
		v   time.Duration
	}{{timing.TagWithin, d.Within}, {timing.TagWithinLimit, d.WithinLimit}, {timing.TagWithinTimeout, d.WithinTimeout}} {
		if b.v > 0 && !w.bounds.asserted[b.tag] {
			return fmt.Sprintf("the scenario declares @%s%d, but no step asserts it", b.tag, b.v/time.Millisecond)
		}
	}
	if q := w.quick; q != nil && q.active {
		return fmt.Sprintf("the scenario declares @%s, but its action is no MCP config step whose limits a quick attempt cuts", timing.TagQuick)
	}
	return ""
}
