package steps

import (
	"context"
	"errors"

	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// Adapters hands each running scenario its own adapter process, so scenarios of one
// implementation can run side by side. A scenario holds its process from its first call
// to its end; a broken process is handed back and a fresh one taken. The runner behind it
// keeps the implementation's breaker.
type Adapters interface {
	Acquire(ctx context.Context) (*adapter.Process, error)
	// Release gives a process back; cutAtBound says the scenario abandoned it at a pinned
	// bound (bounds.go), which replaces it without counting against the adapter. It
	// reports whether the process counted as an adapter failure (a strike).
	Release(p *adapter.Process, cutAtBound bool) (struck bool)
	// ScenarioDone ends a scenario; clean says its adapter answered every call it was sent.
	ScenarioDone(clean bool)
}

// NotRun is implemented by an Acquire error that means the scenario is not run at all (the
// breaker gave up on the adapter): a scenario that never got a process reports that status.
type NotRun interface {
	NotRun() (result.Status, string)
}

// lease is one scenario's use of the pool.
type lease struct {
	used       bool          // a process was handed to the scenario
	unclean    bool          // a process broke, was cut at a bound, or would not start
	cutAtBound bool          // the held process was abandoned at a pinned bound
	notRun     result.Status // set when the pool refused the scenario before it got any process
	notRunWhy  string
}

// adapter is this scenario's live process: the one it holds, or a fresh one when that broke.
func (w *World) adapter() (*adapter.Process, error) {
	if w.proc != nil && !w.proc.IsBroken() {
		return w.proc, nil
	}
	w.releaseAdapter()
	p, err := w.env.Adapters.Acquire(w.ctx)
	if err != nil {
		w.lease.unclean = true
		var nr NotRun
		if errors.As(err, &nr) && !w.lease.used {
			w.lease.notRun, w.lease.notRunWhy = nr.NotRun()
		}
		return nil, err
	}
	w.lease.used = true
	w.proc, w.stderrMark = p, p.MarkStderr()
	return p, nil
}

// releaseAdapter hands the scenario's process back to the pool (which closes a broken one).
func (w *World) releaseAdapter() {
	if w.proc == nil {
		return
	}
	if w.proc.IsBroken() {
		w.lease.unclean = true
	}
	w.env.Adapters.Release(w.proc, w.lease.cutAtBound)
	w.proc, w.lease.cutAtBound = nil, false
}

// endLease releases the scenario's process and tells the pool how the scenario went.
func (w *World) endLease() {
	w.releaseAdapter()
	if w.lease.used || w.lease.unclean {
		w.env.Adapters.ScenarioDone(w.lease.used && !w.lease.unclean)
	}
}
