package timing

import (
	"math"
	"time"
)

// Judging at the bound. Where a scenario pins how long a call may take, the runner stops
// waiting at that bound plus BoundMargin instead of the 15 s call deadline: the scenario
// fails there with what the fakes saw, and the adapter, killed with its process group, is
// replaced for the next scenario.
const (
	// BoundMargin is added to every pinned bound before the runner gives up on a call. A
	// call that returns after the bound but inside the margin is still judged (and fails
	// any "returns within" step with its real time); the margin only decides when to stop
	// waiting. The slack for a loaded machine is in the bounds themselves (a 100 ms cancel
	// has 2 s, and a correct port's slowest bounded call measured here under load is far
	// inside it), so the margin only has to cover the runner's own scheduling.
	BoundMargin = 500 * time.Millisecond
	// HangGuard bounds a stalled or cancelled call in a scenario that pins no time of its
	// own (a teardown check, say): the ADR asks only that it ends, so the runner waits this
	// long past the limit before it calls the port hung. It sits far from every SDK's fixed
	// waits (a 2 s stdin grace before SIGTERM), so a correct port on a loaded machine never
	// meets it.
	HangGuard = 8 * time.Second
	// ExitGrace is how long a port may take, after a call returns, to end the children and
	// connections a teardown check looks at. Generous for a loaded machine: some ports close
	// stdin and wait about 2 s before they signal.
	ExitGrace = 5 * time.Second
	// TimerGrain is taken off every "waited at least" bound (a Retry-After, a backoff): a
	// runtime's timer may read a coarse clock and fire that much before the fake's fine clock
	// has seen the whole wait (.NET on Linux ticks CLOCK_MONOTONIC_COARSE, up to 4 ms; seen:
	// csharp's Retry-After 1 at 999 ms). A wait shorter by more is another wait, and fails.
	TimerGrain = 10 * time.Millisecond
)

// Forever is how long a fake stalls that never answers by itself (only a timeout or the
// caller ends it).
const Forever = time.Duration(math.MaxInt64)

// Bound is, for an MCP call about to be sent, the bound it must meet (0: none pinned, the
// call deadline guards it) and the time even a perfect port needs (its floor). limit is the
// caller's cancel or deadline as sent (0: none); stalls holds, for each enabled stalled
// server of the call, how long it holds the call: its stall, or its own timeout when that is
// sooner (Forever: until the caller ends it).
//   - floor = min(limit, slowest stall), 0 when nothing stalls;
//   - bound, for a call with a caller limit or a stalled server only: the declared @within,
//     else the limit + @within-limit, else limit + HangGuard; without a caller limit, when
//     every stall ends by itself, the slowest + @within-timeout, else + HangGuard.
func (d Declared) Bound(limit time.Duration, stalls []time.Duration) (bound, floor time.Duration) {
	slowest := time.Duration(0)
	for _, s := range stalls {
		slowest = max(slowest, s)
	}
	end := slowest
	if limit > 0 {
		end = min(end, limit)
	}
	if end != Forever {
		floor = end
	}
	switch {
	case limit <= 0 && slowest == 0:
		// Nothing stalls and no caller limit: nothing pinned, whatever the scenario asserts
		// about some other call of it.
	case d.Within > 0:
		bound = d.Within
	case limit > 0 && d.WithinLimit > 0:
		bound = limit + d.WithinLimit
	case limit > 0:
		bound = limit + HangGuard
	case slowest != Forever && d.WithinTimeout > 0:
		bound = slowest + d.WithinTimeout
	case slowest != Forever:
		bound = slowest + HangGuard
	}
	return bound, floor
}
