package steps

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cucumber/godog"

	"github.com/muthuishere/toolnexus-conformance/fakes/faults"
	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
)

// Judging at the bound (SPEC.md §4 "Bounds"). Where the ADR pins how long a call may take,
// the runner stops waiting at that bound plus BoundMargin instead of the 15 s call
// deadline: the scenario fails there with what the fakes saw, and the adapter, killed with
// its process group, is replaced for the next scenario.
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
)

// forever marks a fake that never answers by itself (only a timeout or the caller ends it).
const forever = time.Duration(math.MaxInt64)

var (
	withinStep      = regexp.MustCompile(`^the call returns within (\d+) ms$`)
	withinLimitRe   = regexp.MustCompile(withinLimitStep)
	withinTimeoutRe = regexp.MustCompile(withinTimeoutStep)
)

// bounds is one scenario's pinned timing: what it declares, and the waits it cannot avoid.
type bounds struct {
	within time.Duration // the scenario's "the call returns within N ms", if any
	// afterLimit is the scenario's "within N ms of the caller's limit", if any.
	afterLimit time.Duration
	// afterTimeout is the scenario's "within N ms of the server's timeout", if any.
	afterTimeout time.Duration
	stalls       map[string]time.Duration // server name -> how long its fake stalls (forever: never answers)
	slow         map[string]*faults.Slow
	floor        time.Duration // sum of the unavoidable waits of the calls made so far
}

func newBounds(s *godog.Scenario) bounds {
	b := bounds{stalls: map[string]time.Duration{}, slow: map[string]*faults.Slow{}}
	for _, st := range s.Steps {
		if m := withinStep.FindStringSubmatch(st.Text); m != nil {
			ms, _ := strconv.Atoi(m[1])
			b.within = time.Duration(ms) * time.Millisecond
		}
		if m := withinLimitRe.FindStringSubmatch(st.Text); m != nil {
			ms, _ := strconv.Atoi(m[1])
			b.afterLimit = time.Duration(ms) * time.Millisecond
		}
		if m := withinTimeoutRe.FindStringSubmatch(st.Text); m != nil {
			ms, _ := strconv.Atoi(m[1])
			b.afterTimeout = time.Duration(ms) * time.Millisecond
		}
	}
	return b
}

// stallsFor records that the fake behind server name stalls for d (forever: never answers).
func (w *World) stallsFor(name string, d time.Duration) { w.bounds.stalls[name] = d }

// pin works out, for an MCP call about to be sent, the bound it must meet (0: none pinned,
// the call deadline guards it) and the time even a perfect port needs (its floor):
//   - the caller's cancel or deadline (limit) ends the call; a stalled server's own timeout
//     ends that server, and the call waits for its slowest server;
//   - floor = min(limit, slowest stall), 0 when nothing stalls;
//   - bound, for a call with a caller limit or a stalled server only: the scenario's
//     "returns within" (or "within N ms of the caller's limit"), else, where the scenario
//     pins no time, limit + HangGuard, else (every stall ended by a server timeout)
//     slowest stall + HangGuard.
func (w *World) pin(limit time.Duration) (bound, floor time.Duration) {
	slowest := time.Duration(0)
	for name, d := range w.bounds.stalls {
		if cfg, ok := w.mcp.servers[name]; ok {
			if ms, ok := cfg["timeout"].(int); ok && time.Duration(ms)*time.Millisecond < d {
				d = time.Duration(ms) * time.Millisecond
			}
			if enabled, ok := cfg["enabled"].(bool); ok && !enabled {
				continue
			}
			slowest = max(slowest, d)
		}
	}
	end := slowest
	if limit > 0 {
		end = min(end, limit)
	}
	if end != forever {
		floor = end
	}
	switch {
	case limit <= 0 && slowest == 0:
		// Nothing stalls and no caller limit: nothing pinned, whatever the scenario asserts
		// about some other call of it.
	case w.bounds.within > 0:
		bound = w.bounds.within
	case limit > 0 && w.bounds.afterLimit > 0:
		bound = limit + w.bounds.afterLimit
	case limit > 0:
		bound = limit + HangGuard
	case slowest > 0 && slowest != forever && w.bounds.afterTimeout > 0:
		bound = slowest + w.bounds.afterTimeout
	case slowest > 0 && slowest != forever:
		bound = slowest + HangGuard
	}
	return bound, floor
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
	ctx, cancel := context.WithTimeout(w.ctx, bound+BoundMargin)
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
		w.waited += bound + BoundMargin
		return nil, fmt.Errorf("%s: no answer within %s (the pinned bound %s + margin %s); the adapter was killed and is replaced for the next scenario\nthe fakes saw: %s",
			op, bound+BoundMargin, bound, BoundMargin, w.fakesSaw())
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
