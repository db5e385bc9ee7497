package mcp

import (
	"fmt"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/internal/timing"
)

// Judging at the bound (SPEC.md §3; the policy is internal/timing). The scenario's tags
// declare the bound, once; the steps register the stalls as they set them up, and the
// assertion steps take the bound from the declaration (kernel.Attempt.Asserts).

// stallsFor records that the fake behind server name stalls for d (timing.Forever: never
// answers).
func (w *World) stallsFor(name string, d time.Duration) { w.stalls().stalls[name] = d }

// stallsIn is stallsFor for a fake whose stall the client can be seen to reach: it stalls in
// phase until something ends it.
func (w *World) stallsIn(name, phase string, d time.Duration) {
	w.stallsFor(name, d)
	w.stalls().reach[name] = phase
	w.A.Reachable()
}

// pin works out, for an MCP call about to be sent with the caller's limit, the bound it must
// meet and its floor (timing.Declared.Bound): each enabled stalled server of the config holds
// the call for its stall, or for its own timeout when that is sooner.
func (w *World) pin(limit time.Duration) (bound, floor time.Duration) {
	var stalls []time.Duration
	for name, d := range w.stalls().stalls {
		cfg, ok := w.mcp().Servers[name]
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
	return w.A.Declared().Bound(limit, stalls)
}

// The steps that assert a declared bound. The bound is the scenario's tag, declared once: the
// bound the runner waited for is the one the step asserts.
func registerTimingSteps(sc *kernel.Steps) {
	sc.Step(`^the call returns within its declared bound$`, (*World).callWithin)
	sc.Step(`^the call returns within the declared bound of the caller's limit$`, (*World).callWithinLimit)
	sc.Step(`^the call returns within the declared bound of the server's timeout$`, (*World).withinTimeout)
}

// callWithin is used only where the ADR pins a bound (a cancel returns in well under 2 s).
func (w *World) callWithin() error {
	d, err := w.A.Asserts(timing.TagWithin)
	if err != nil {
		return err
	}
	return w.returnedWithin(d)
}

// callWithinLimit bounds the last call by its caller's cancel or deadline, as sent (a quick
// first attempt cuts it), plus the declared slack.
func (w *World) callWithinLimit() error {
	d, err := w.A.Asserts(timing.TagWithinLimit)
	if err != nil {
		return err
	}
	if w.A.LastLimit() <= 0 {
		return fmt.Errorf("harness: the last call had no cancel or deadline")
	}
	return w.returnedWithin(w.A.LastLimit() + d)
}

// withinTimeout bounds a call by the largest per-server timeout of the scenario plus the
// declared slack.
func (w *World) withinTimeout() error {
	d, err := w.A.Asserts(timing.TagWithinTimeout)
	if err != nil {
		return err
	}
	longest := 0
	for _, ms := range w.mcp().Timeouts {
		longest = max(longest, ms)
	}
	if longest == 0 {
		return fmt.Errorf("harness: no server of this scenario has a timeout")
	}
	return w.returnedWithin(time.Duration(longest)*time.Millisecond + d)
}

func (w *World) returnedWithin(limit time.Duration) error {
	if w.Last() == nil {
		return fmt.Errorf("harness: no call was made")
	}
	if w.A.LastElapsed() > limit {
		return fmt.Errorf("%s took %s; the ADR bound is %s", w.LastOp(), w.A.LastElapsed().Round(time.Millisecond), limit)
	}
	return nil
}
