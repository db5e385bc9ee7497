package kernel

import (
	"context"
	"sync"
	"time"

	"github.com/cucumber/godog"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// Scenario is one godog scenario on one implementation: its steps, bound once, and the
// attempt they act on now (a replay or a quick restart swaps in fresh state underneath).
type Scenario struct {
	env      *Env
	lib      Library
	steps    *Steps
	scenario *godog.Scenario
	cur      *Attempt
	attempts int       // attempts made so far (a quick restart is not one)
	hung     *hungCall // the first call an attempt waited the whole deadline for (call.go)
}

// Returned, when set, gives the values an attempt returned for X.4 (parity), from its tags.
type Returned func(a *Attempt, tags []string) any

// Scenarios is godog's scenario initializer for one implementation's run: every step of lib
// bound to a fresh Scenario. A scenario the runner wants tried again (Hooks.Retry) is
// replayed whole in After on a fresh attempt with fresh fakes and a fresh adapter; the
// outcome reported carries every attempt.
func Scenarios(env *Env, lib Library, returned Returned) func(*godog.ScenarioContext) {
	matching := &sync.Map{}
	return func(ctx *godog.ScenarioContext) {
		sc := &Scenario{env: env, lib: lib}
		sc.steps = &Steps{sc: sc, next: ctx, lazy: true, matching: matching}
		lib.register(sc.steps)
		h := env.Hooks
		var started time.Time
		var skipped result.Status
		var skipWhy string
		var parent context.Context
		release := func() {}
		ctx.Before(func(c context.Context, s *godog.Scenario) (context.Context, error) {
			// godog matches the first step after this hook: it needs only this scenario's steps.
			texts := make([]string, len(s.Steps))
			for i, st := range s.Steps {
				texts[i] = st.Text
			}
			sc.steps.forScenario(texts)
			if h.Admit != nil {
				// An error is the run stopping: Skip below says so.
				release, _ = h.Admit(c)
			}
			started, parent, sc.scenario = time.Now(), c, s
			sc.attempts, sc.hung = 0, nil
			if h.Skip != nil {
				if skipped, skipWhy = h.Skip(); skipped != "" {
					return c, godog.ErrSkip
				}
			}
			a, err := newAttempt(sc, c, !env.AsWritten)
			sc.cur = a
			return a.ctx, err
		})
		ctx.After(func(c context.Context, s *godog.Scenario, err error) (context.Context, error) {
			defer release()
			if skipped != "" {
				o := newOutcome(s, started)
				o.Status, o.Message = skipped, skipWhy
				if h.Report != nil {
					h.Report(o)
				}
				return c, nil
			}
			o := sc.cur.outcome(started, err)
			var attempts []result.Attempt
			for {
				sc.cur.releaseBroken()
				again := h.Retry != nil && h.Retry(o, len(attempts)+1)
				if again && h.Skip != nil {
					if st, _ := h.Skip(); st != "" {
						again = false
					}
				}
				sc.cur.end(again)
				if !again {
					break
				}
				prev := sc.cur
				next := sc.replay(parent)
				if sc.cur.lease.notRun != "" {
					// The pool refused the retry any process (the breaker tripped meanwhile,
					// or the run stopped): it never ran, and the attempt before it stands.
					sc.cur.end(false)
					sc.cur = prev
					break
				}
				attempts = append(attempts, o.AsAttempt())
				o = next
			}
			if len(attempts) > 0 {
				o.Attempts = append(attempts, o.AsAttempt())
				o.Elapsed = time.Since(started)
			}
			if returned != nil {
				o.Returned = returned(sc.cur, o.Tags)
			}
			if h.Report != nil {
				h.Report(o)
			}
			return c, nil
		})
	}
}

// replay runs every step of the scenario once more on a fresh attempt, as written (a retry
// gets no quick first attempt), and returns its outcome.
func (sc *Scenario) replay(parent context.Context) result.Outcome {
	began := time.Now()
	a, err := newAttempt(sc, parent, false)
	sc.cur = a
	for _, st := range sc.scenario.Steps {
		if err != nil {
			break
		}
		err = sc.steps.replay(st)
	}
	return a.outcome(began, err)
}
