package steps

import (
	"context"

	"toolnexus-conformance/internal/adapter"
)

// Adapters hands each running scenario its own adapter process, so scenarios of one
// implementation can run side by side. A scenario holds its process from its first call
// to its end; a broken process is handed back and a fresh one taken.
type Adapters interface {
	Acquire(ctx context.Context) (*adapter.Process, error)
	Release(*adapter.Process)
}

// adapter is this scenario's live process: the one it holds, or a fresh one when that broke.
func (w *World) adapter() (*adapter.Process, error) {
	if w.proc != nil && !w.proc.IsBroken() {
		return w.proc, nil
	}
	w.releaseAdapter()
	p, err := w.env.Adapters.Acquire(w.ctx)
	if err != nil {
		return nil, err
	}
	w.proc, w.stderrMark = p, p.MarkStderr()
	return p, nil
}

// releaseAdapter hands the scenario's process back to the pool (which closes a broken one).
func (w *World) releaseAdapter() {
	if w.proc != nil {
		w.env.Adapters.Release(w.proc)
		w.proc = nil
	}
}
