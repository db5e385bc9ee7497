package suite

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"toolnexus-conformance/internal/adapter"
)

// pool hands each running scenario its own adapter process, so the scenarios of one
// implementation can run side by side (--jobs). At most size processes are in use at
// once; a process comes back to the idle list after its scenario, and one that broke
// (crashed, timed out, was abandoned at a bound) is closed and never handed out again.
type pool struct {
	cfg    adapter.Config
	slots  chan struct{} // one token per process that is in use or being replaced
	ctx    context.Context
	cancel context.CancelFunc // ends replacements still starting when the run is over

	replacing sync.WaitGroup
	fresh     chan *adapter.Process // replacements as they come up (nil: one failed to start)
	pending   int                   // replacements started and not yet claimed by an Acquire
	spare     bool                  // a spare was started at the first break (see Release)

	mu     sync.Mutex
	idle   []*adapter.Process
	closed bool
	starts int           // processes started, for the bench's start-up figure
	spent  time.Duration // time spent starting them (start, hello, warm-up)

	helloOps []any       // the ops the adapter said hello with
	noWarm   atomic.Bool // a warm-up broke an adapter: start the others cold
}

func newPool(ctx context.Context, cfg adapter.Config, size int) *pool {
	if size < 1 {
		size = 1
	}
	ctx, cancel := context.WithCancel(ctx)
	return &pool{cfg: cfg, slots: make(chan struct{}, size), ctx: ctx, cancel: cancel,
		fresh: make(chan *adapter.Process, size+2)}
}

// Acquire returns a live adapter for one scenario; Release must give it back.
func (p *pool) Acquire(ctx context.Context) (*adapter.Process, error) {
	select {
	case p.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("harness: no adapter process free: %w", ctx.Err())
	}
	p.mu.Lock()
	for len(p.idle) > 0 {
		proc := p.idle[len(p.idle)-1]
		p.idle = p.idle[:len(p.idle)-1]
		if !proc.IsBroken() {
			p.mu.Unlock()
			return proc, nil
		}
		proc.Close()
	}
	closed := p.closed
	if !closed && p.pending > 0 {
		// A replacement is on its way: wait for it rather than start one more.
		p.pending--
		p.mu.Unlock()
		select {
		case proc := <-p.fresh:
			if proc != nil {
				return proc, nil
			}
		case <-ctx.Done():
			p.mu.Lock()
			p.pending++
			p.mu.Unlock()
			<-p.slots
			return nil, fmt.Errorf("harness: no adapter process free: %w", ctx.Err())
		}
		p.mu.Lock()
	}
	p.mu.Unlock()
	if closed {
		<-p.slots
		return nil, fmt.Errorf("harness: adapter pool of %q is closed", p.cfg.Port)
	}
	proc, err := p.start(ctx)
	if err != nil {
		<-p.slots
		return nil, err
	}
	return proc, nil
}

// Release gives a process back. A broken one is closed (its process group killed) and a
// replacement started at once, so the next scenario does not wait for a whole start-up.
func (p *pool) Release(proc *adapter.Process) {
	if proc == nil {
		return
	}
	p.mu.Lock()
	switch {
	case p.closed:
		p.mu.Unlock()
		proc.Close()
		<-p.slots
	case proc.IsBroken():
		// At the first break, start one process more than needed: from then on a scenario
		// after a break takes the spare at once while the next one starts. A port that
		// breaks once tends to break again (it ignores a cancel, say), and its start-up would
		// otherwise sit in the next scenario's time after every break.
		n := 1
		if !p.spare {
			p.spare, n = true, 2
		}
		p.replacing.Add(n)
		p.pending += n
		p.mu.Unlock()
		<-p.slots
		for i := range n {
			go func() {
				defer p.replacing.Done()
				if i == 0 {
					proc.Close()
				}
				fresh, err := p.start(p.ctx)
				if err != nil {
					fresh = nil // the Acquire that waits for it starts its own, and says why if that fails
				}
				p.fresh <- fresh
			}()
		}
	default:
		p.idle = append(p.idle, proc)
		p.mu.Unlock()
		<-p.slots
	}
}

// start launches one adapter, says hello and warms it up (warm.go), so only a working
// process is handed out. A port whose warm-up breaks its adapter gets none from then on.
func (p *pool) start(ctx context.Context) (*adapter.Process, error) {
	began := time.Now()
	proc, err := p.launch(ctx)
	if err != nil {
		return nil, err
	}
	if !p.noWarm.Load() && !warm(ctx, proc, p.ops(proc)) {
		p.noWarm.Store(true)
		proc.Close()
		if proc, err = p.launch(ctx); err != nil {
			return nil, err
		}
	}
	p.mu.Lock()
	p.starts++
	p.spent += time.Since(began)
	p.mu.Unlock()
	return proc, nil
}

func (p *pool) launch(ctx context.Context) (*adapter.Process, error) {
	proc, err := adapter.Start(p.cfg)
	if err != nil {
		return nil, err
	}
	r, err := proc.Call(ctx, "hello", nil)
	if err == nil && !r.OK {
		err = fmt.Errorf("hello failed: %s", r.Error.Message)
	}
	if err != nil {
		proc.Close()
		return nil, err
	}
	p.mu.Lock()
	if p.helloOps == nil {
		p.helloOps, _ = r.Result["ops"].([]any)
	}
	p.mu.Unlock()
	return proc, nil
}

func (p *pool) ops(*adapter.Process) []any {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.helloOps
}

// hello starts (or reuses) one process and returns the port's identity.
func (p *pool) hello(ctx context.Context) (map[string]any, error) {
	proc, err := p.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer p.Release(proc)
	r, err := proc.Call(ctx, "hello", nil)
	if err != nil {
		return nil, err
	}
	return r.Result, nil
}

// fill starts every process the pool may hand out, side by side, before any scenario runs:
// then no timing-bound scenario shares the machine with this implementation's own start-up
// (a JVM's class loading and JIT starve a neighbour's 100 ms cancel on a 2-core machine).
func (p *pool) fill(ctx context.Context) {
	n := cap(p.slots)
	got := make(chan *adapter.Process, n)
	for range n {
		go func() {
			proc, _ := p.Acquire(ctx) // one that will not start fails its scenario later, with why
			got <- proc
		}()
	}
	// Hand them back only once all are started, or an Acquire would reuse one.
	procs := make([]*adapter.Process, 0, n)
	for range n {
		procs = append(procs, <-got)
	}
	for _, proc := range procs {
		p.Release(proc)
	}
}

// close shuts every idle process down; scenarios have released theirs by now.
func (p *pool) close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.cancel()
	p.replacing.Wait()
	p.mu.Lock()
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	for len(p.fresh) > 0 {
		if proc := <-p.fresh; proc != nil {
			idle = append(idle, proc)
		}
	}
	var wg sync.WaitGroup
	for _, proc := range idle {
		wg.Add(1)
		go func() { defer wg.Done(); proc.Close() }()
	}
	wg.Wait()
}

// startCost is the mean time one adapter took to start and answer hello, and how many started.
func (p *pool) startCost() (time.Duration, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.starts == 0 {
		return 0, 0
	}
	return p.spent / time.Duration(p.starts), p.starts
}
