package kernel

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cucumber/godog"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
	"github.com/muthuishere/toolnexus-conformance/internal/safetext"
)

// Attempt is one attempt of a scenario: its deadline, temp dir, adapter lease, pinned
// timing, the calls it made and what the host functions saw, and the areas' states.
type Attempt struct {
	sc     *Scenario
	ctx    context.Context
	cancel context.CancelFunc
	id     int64
	number int // 1 for the scenario's first attempt
	dir    string
	lease  lease      // the adapter process it holds (lease.go)
	bounds bounds     // pinned timing (bounds.go)
	quick  *quickPlan // the quick first attempt, nil when it runs as written (quick.go)
	calls  calls      // what the calls returned (call.go)
	slots  slotRecord // what the host functions saw (slots.go)
	mu     sync.Mutex
	states map[reflect.Type]State
	order  []State
}

// Env is the run's environment.
func (a *Attempt) Env() *Env { return a.sc.env }

// Ctx is the attempt's context: it ends at the scenario's deadline.
func (a *Attempt) Ctx() context.Context { return a.ctx }

// Dir is the attempt's own temp dir, removed when it ends.
func (a *Attempt) Dir() string { return a.dir }

// Shared is what area name opened for the whole run (Library.Open).
func (a *Attempt) Shared(name string) any { return a.sc.env.Shared[name] }

// Handle names an adapter object uniquely for this run.
func (a *Attempt) Handle(kind string) string {
	return fmt.Sprintf("%s%d_%d", kind, a.id, a.sc.env.seq.Add(1))
}

// newAttempt readies one attempt of s: its deadline, fresh states and a temp dir.
func newAttempt(sc *Scenario, ctx context.Context, quick bool) (*Attempt, error) {
	a := &Attempt{sc: sc}
	if sc.env.ScenarioTimeout > 0 {
		ctx, a.cancel = context.WithTimeout(ctx, sc.env.ScenarioTimeout)
	}
	a.ctx = ctx
	a.id = sc.env.seq.Add(1)
	sc.attempts++
	a.number = sc.attempts
	if err := a.fresh(); err != nil || !quick {
		return a, err
	}
	q, err := planQuick(sc.scenario, a.bounds.declared, sc.steps)
	a.quick = q
	return a, err
}

// fresh gives the attempt new states, the scenario's bounds, an empty call record and a new
// temp dir; the adapter lease and the deadline stay.
func (a *Attempt) fresh() error {
	a.mu.Lock()
	a.states, a.order = map[reflect.Type]State{}, nil
	a.mu.Unlock()
	a.calls = calls{}
	a.slots.reset()
	var err error
	if a.bounds, err = newBounds(a.sc.scenario); err != nil {
		return err
	}
	dir, err := os.MkdirTemp(a.sc.env.TempRoot, "conformance-scenario-")
	if err != nil {
		return fmt.Errorf("harness: temp dir: %w", err)
	}
	a.dir = dir
	return nil
}

// cleanup closes what the attempt opened: what the states hold in the adapter, then every
// state (last created first), then its dir.
func (a *Attempt) cleanup() {
	a.mu.Lock()
	states := append([]State(nil), a.order...)
	a.mu.Unlock()
	for _, s := range states {
		if c, ok := s.(EarlyCloser); ok {
			c.CloseEarly()
		}
	}
	for i := len(states) - 1; i >= 0; i-- {
		if c, ok := states[i].(Closer); ok {
			c.Close()
		}
	}
	if a.dir != "" {
		_ = os.RemoveAll(a.dir)
	}
}

// end closes the attempt: what it opened, its adapter lease (discarding the process when
// another attempt follows, so that one starts fresh) and its deadline.
func (a *Attempt) end(discard bool) {
	a.cleanup()
	if discard && a.lease.proc != nil && !a.lease.proc.IsBroken() {
		// A healthy process retired for the retry: not an adapter fault. One that broke (a
		// hang, a crash) still counts for the breaker, retried or not.
		a.lease.proc.Discard()
		a.lease.cutAtBound = true
	}
	a.endLease()
	if a.cancel != nil {
		a.cancel()
	}
}

func newOutcome(s *godog.Scenario, started time.Time) result.Outcome {
	o := result.Outcome{Scenario: s.Name, URI: s.Uri, Status: result.StatusPass, Elapsed: time.Since(started),
		AstNodeIDs: append([]string(nil), s.AstNodeIds...)}
	o.Order, _ = strconv.Atoi(s.Id)
	for _, t := range s.Tags {
		o.Tags = append(o.Tags, strings.TrimPrefix(t.Name, "@"))
	}
	return o
}

// outcome is what the attempt came to, from its first failing step's error.
func (a *Attempt) outcome(started time.Time, err error) result.Outcome {
	if e, ok := err.(*escaped); ok {
		err = e.cause // the outcome escapes the message itself, and keeps its stable stand-in
	}
	o := newOutcome(a.sc.scenario, started)
	o.Floor = a.bounds.floor
	if err == nil && a.lease.notRun == "" {
		if why := a.unasserted(); why != "" {
			err = &Misdeclared{why}
		}
	}
	var u *Unsupported
	var inc *Inconclusive
	var blocked *Blocked
	switch {
	case a.lease.notRun != "":
		// The breaker gave up on the adapter while this scenario waited for a process.
		o.Status, o.Message = a.lease.notRun, a.lease.notRunWhy
	case err == nil:
	case errors.As(err, &u):
		o.Status, o.Message = result.StatusUnsupported, u.Error()
	case errors.As(err, &inc):
		o.Status, o.Message, o.Final = result.StatusInconclusive, err.Error(), inc.Final
	case errors.As(err, &blocked):
		o.Status, o.Message, o.Final = result.StatusFail, err.Error(), true
	default:
		o.Status, o.Message = result.StatusFail, err.Error()
	}
	a.each(func(s State) {
		if e, ok := s.(Evidencer); ok {
			e.Evidence(&o)
		}
	})
	if p := a.lease.proc; p != nil && o.Status != result.StatusPass {
		o.Stderr = p.StderrSince(a.lease.stderrMark)
	}
	o.Message = safetext.Text(o.Message) // it may quote what the adapter wrote
	if o.Status == result.StatusFail || o.Status == result.StatusUnsupported {
		if st := StableMessage(err); st != "" {
			o.Stable = safetext.Text(st)
		}
	}
	o.Settled, o.Waited = a.bounds.settled, a.bounds.waited
	if q := a.quick; q != nil {
		o.Quick, o.Retried = !q.active && q.cut && q.void == "", q.void
	}
	var mis *Misdeclared
	switch {
	case errors.As(err, &mis):
		o.Harness = mis.Why
	case o.Status == result.StatusFail && strings.HasPrefix(err.Error(), harnessPrefix):
		// The harness's own fault (a golden copy or a port's facts missing, a fake that would
		// not start): a harness error at the scenario's file:line, never the port's verdict,
		// and not tried again.
		o.Harness = safetext.Line(strings.TrimPrefix(err.Error(), harnessPrefix))
	}
	return o
}

// Folder is the area folder the scenario's feature file lies in (features/<area>/…): where
// the area keeps its fixtures and golden copies.
func (a *Attempt) Folder() string { return filepath.Base(filepath.Dir(a.sc.scenario.Uri)) }

// harnessPrefix starts the message of every error that is the harness's fault, not the port's.
const harnessPrefix = "harness: "
