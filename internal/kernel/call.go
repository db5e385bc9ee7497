package kernel

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/internal/safetext"
	"github.com/muthuishere/toolnexus-conformance/internal/timing"
)

// calls is what the attempt's calls returned: every response, the last one's op, time and
// the caller's limit as sent, and every warning.
type calls struct {
	sent      int // calls sent so far: the ordinal that names one call across attempts
	responses []Response
	elapsed   time.Duration
	limit     time.Duration
	warnings  []string
}

// Response is one call's op and what the adapter answered.
type Response struct {
	Op   string
	Resp *adapter.Response
}

// Last is the last call's response and op; nil when no call was made.
func (a *Attempt) Last() (*adapter.Response, string) {
	if n := len(a.calls.responses); n > 0 {
		r := a.calls.responses[n-1]
		return r.Resp, r.Op
	}
	return nil, ""
}

// LastElapsed is how long the last call took, as the runner measured it.
func (a *Attempt) LastElapsed() time.Duration { return a.calls.elapsed }

// LastLimit is the caller's cancel or deadline of the last call, as sent (SetLimit).
func (a *Attempt) LastLimit() time.Duration { return a.calls.limit }

// SetLimit records the caller's limit of the call about to be sent.
func (a *Attempt) SetLimit(d time.Duration) { a.calls.limit = d }

// Responses are every response of the attempt, in order.
func (a *Attempt) Responses() []Response { return a.calls.responses }

// Warnings are every warning the port emitted in the attempt's calls.
func (a *Attempt) Warnings() []string { return a.calls.warnings }

// Call sends one request and keeps its response; a port-level error is not a Go error here,
// so "then it fails with …" steps can judge it. Unsupported always stops the scenario, and
// so does a crash outside the call's result.
func (a *Attempt) Call(op string, args map[string]any) (*adapter.Response, error) {
	if why := a.sc.env.Supports.lacks(op, args); why != "" {
		return nil, &Unsupported{Op: op, Message: why}
	}
	p, err := a.Adapter()
	if err != nil {
		return nil, err
	}
	a.slots.begin(op)
	a.calls.sent++
	within, again := a.sc.hung.within(a, op, p.CallTimeout())
	start := time.Now()
	r, err := p.CallWithin(a.ctx, op, args, a.answer, within)
	elapsed := time.Since(start)
	if err != nil {
		var broken *adapter.Broken
		if errors.As(err, &broken) && broken.Hung {
			if again != nil {
				return nil, fmt.Errorf("%s: the same hang as attempt %d, which waited the whole call deadline (%s) for this call; a retry waits %s for it: %w",
					op, again.attempt, again.waited, within, err)
			}
			a.hungOn(op, p.CallTimeout())
		}
		return nil, err
	}
	a.slots.end(r)
	a.calls.elapsed = elapsed
	a.calls.responses = append(a.calls.responses, Response{op, r})
	a.calls.warnings = append(a.calls.warnings, r.Warnings...)
	if len(r.Crashes) > 0 {
		// A library that would end its host's process fails, whatever the call returned. The
		// first line of each crash is the evidence (stack traces are in the adapter's stderr).
		var heads []string
		for _, c := range r.Crashes {
			head, _, _ := strings.Cut(c, "\n")
			if !slices.Contains(heads, head) {
				heads = append(heads, head)
			}
		}
		slices.Sort(heads)
		return r, fmt.Errorf("%s: the library crashed outside the call's result (it would end a default host process): %s",
			op, safetext.Text(strings.Join(heads, "; ")))
	}
	if !r.OK && r.Error.Kind == "unsupported" {
		return r, &Unsupported{Op: op, Message: r.Error.Message}
	}
	return r, nil
}

// Must is Call for set-up steps: any port error fails the step.
func (a *Attempt) Must(op string, args map[string]any) (map[string]any, error) {
	r, err := a.Call(op, args)
	if err != nil {
		return nil, err
	}
	if !r.OK {
		return nil, fmt.Errorf("%s failed: %s: %s", op, r.Error.Kind, r.Error.Message)
	}
	return r.Result, nil
}

// CallBounded is Call with the scenario's pinned bound: when no answer comes within bound +
// BoundMargin the adapter is abandoned (killed and marked broken, so the pool replaces it)
// and the scenario fails with what the fakes saw so far. floor is the call's unavoidable wait.
func (a *Attempt) CallBounded(op string, args map[string]any, bound, floor time.Duration) (*adapter.Response, error) {
	a.bounds.floor += floor
	if bound <= 0 {
		return a.Call(op, args)
	}
	// The bound is the call's, not the wait for a process: take one (a replacement may still
	// be starting) before the clock starts.
	if _, err := a.Adapter(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(a.ctx, bound+timing.BoundMargin)
	defer cancel()
	scenarioCtx := a.ctx
	a.ctx = ctx
	r, err := a.Call(op, args)
	a.ctx = scenarioCtx
	var broken *adapter.Broken
	if err != nil && errors.As(err, &broken) && ctx.Err() != nil && scenarioCtx.Err() == nil {
		// The port's own failure on a bounded scenario, not an adapter fault: the process is
		// replaced, but the breaker does not count it (suite.BreakerThreshold).
		a.lease.cutAtBound = true
		a.bounds.waited += bound + timing.BoundMargin
		return nil, fmt.Errorf("%s: no answer within %s (the pinned bound %s + margin %s); the adapter was killed and is replaced for the next scenario\nthe fakes saw: %s",
			op, bound+timing.BoundMargin, bound, timing.BoundMargin, a.fakesSaw())
	}
	return r, err
}

// HungRetryShare: a retry waits a third of the call deadline for the call an earlier attempt
// of its scenario hung on (SPEC.md §2 "Retries"). A port that hung once is not waited on for
// the whole deadline again, yet a retry can still find the call answered (flaky, not failed).
const HungRetryShare = 3

// hungCall is the call an earlier attempt of the scenario waited the whole deadline for:
// its op, its ordinal in the attempt, that attempt's number and the deadline it waited.
type hungCall struct {
	op      string
	nth     int
	attempt int
	waited  time.Duration
	by      *Attempt
}

// within is the deadline for a's call about to be sent (op, a.calls.sent): the call deadline
// / HungRetryShare when an earlier attempt hung on this very call, else 0 (the call deadline).
func (h *hungCall) within(a *Attempt, op string, deadline time.Duration) (time.Duration, *hungCall) {
	if h == nil || h.by == a || h.op != op || h.nth != a.calls.sent {
		return 0, nil
	}
	return deadline / HungRetryShare, h
}

// hungOn keeps the first call of the scenario its adapter hung on.
func (a *Attempt) hungOn(op string, deadline time.Duration) {
	if a.sc.hung == nil {
		a.sc.hung = &hungCall{op: op, nth: a.calls.sent, attempt: a.number, waited: deadline, by: a}
	}
}

// fakesSaw summarises what the areas' fakes recorded, for a call cut off at its bound.
func (a *Attempt) fakesSaw() string {
	var parts []string
	for _, ar := range a.sc.lib {
		if ar.Witness != nil {
			parts = append(parts, ar.Witness(a)...)
		}
	}
	slices.Sort(parts)
	return strings.Join(parts, "; ")
}
