package kernel

import (
	"errors"

	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// lease is one attempt's use of the pool.
type lease struct {
	proc       *adapter.Process // the attempt's adapter, from Env.Adapters
	stderrMark int64            // proc's stderr position when the attempt took it
	used       bool             // a process was handed to the scenario
	unclean    bool             // a process broke, was cut at a bound, or would not start
	cutAtBound bool             // the held process was abandoned at a pinned bound
	notRun     result.Status    // set when the pool refused the scenario before it got any process
	notRunWhy  string
}

// Adapter is this attempt's live process: the one it holds, or a fresh one when that broke.
func (a *Attempt) Adapter() (*adapter.Process, error) {
	l := &a.lease
	if l.proc != nil && !l.proc.IsBroken() {
		return l.proc, nil
	}
	a.releaseAdapter()
	p, err := a.sc.env.Adapters.Acquire(a.ctx)
	if err != nil {
		l.unclean = true
		var nr NotRun
		if errors.As(err, &nr) && !l.used {
			l.notRun, l.notRunWhy = nr.NotRun()
		}
		return nil, err
	}
	l.used = true
	l.proc, l.stderrMark = p, p.MarkStderr()
	return p, nil
}

// Proc is the process the attempt holds now (nil before its first call), for steps that
// read its stderr or children.
func (a *Attempt) Proc() *adapter.Process { return a.lease.proc }

// StderrMark is where the held process's stderr stood when the attempt took it.
func (a *Attempt) StderrMark() int64 { return a.lease.stderrMark }

// releaseAdapter hands the attempt's process back to the pool (which closes a broken one).
func (a *Attempt) releaseAdapter() {
	l := &a.lease
	if l.proc == nil {
		return
	}
	if l.proc.IsBroken() {
		l.unclean = true
	}
	a.sc.env.Adapters.Release(l.proc, l.cutAtBound)
	l.proc, l.cutAtBound = nil, false
}

// releaseBroken hands back a process that broke at once, so the breaker counts it before the
// runner decides whether the scenario is tried again (a tripped breaker stops the retry).
func (a *Attempt) releaseBroken() {
	if p := a.lease.proc; p != nil && p.IsBroken() {
		a.releaseAdapter()
	}
}

// endLease releases the process and tells the pool how the scenario went.
func (a *Attempt) endLease() {
	a.releaseAdapter()
	if l := &a.lease; l.used || l.unclean {
		a.sc.env.Adapters.ScenarioDone(l.used && !l.unclean)
	}
}

// CutAtBound says the held process was abandoned at a pinned bound by the last call.
func (a *Attempt) CutAtBound() bool { return a.lease.cutAtBound }
