package suite

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/internal/safetext"
)

// pool hands each running scenario its own adapter process, so the scenarios of one
// implementation can run side by side (--jobs). At most size processes are in use at
// once; a process comes back to the idle list after its scenario, and one that broke
// (crashed, timed out, was abandoned at a bound) is closed and never handed out again.
// The pool holds the implementation's breaker (breaker.go): failures are counted across all
// its processes, and once it trips no process is handed out any more.
type pool struct {
	cfg    adapter.Config
	size   int
	ctx    context.Context
	cancel context.CancelFunc // ends replacements still starting when the run is over

	replacing sync.WaitGroup
	fresh     chan *adapter.Process // replacements as they come up (nil: one failed to start)

	mu           sync.Mutex
	inUse        int           // processes held by scenarios (or being started for one)
	changed      chan struct{} // closed (and renewed) when inUse or the breaker changes
	pending      int           // replacements started and not yet claimed by an Acquire
	spare        bool          // a spare was started at the first break (see Release)
	idle         []*adapter.Process
	closed       bool
	starts       int           // processes started, for the bench's start-up figure
	spent        time.Duration // time spent starting them (start, hello, warm-up)
	filled       bool          // fill is over: every start from now on is a replacement
	replaced     int           // replacements started (after the fill)
	replaceSpent time.Duration // time spent starting them
	waits        int           // Acquires that found no process free and waited for a start
	waited       time.Duration // time they waited
	breaker      breaker
	leaks        []adapter.Leak // left by every process closed so far

	helloOps []any       // the ops the adapter said hello with
	noWarm   atomic.Bool // a warm-up broke an adapter: start the others cold
}

func newPool(ctx context.Context, cfg adapter.Config, size, threshold int) *pool {
	if size < 1 {
		size = 1
	}
	ctx, cancel := context.WithCancel(ctx)
	return &pool{cfg: cfg, size: size, ctx: ctx, cancel: cancel, changed: make(chan struct{}),
		fresh: make(chan *adapter.Process, size+2), breaker: breaker{threshold: threshold}}
}

// notify wakes every Acquire waiting for room. Callers hold mu.
func (p *pool) notify() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// leave gives up one in-use place. Callers hold mu.
func (p *pool) leave() {
	p.inUse--
	p.notify()
}

// admit waits for room to hold one more process: fewer than size in use, fewer still while
// the breaker counts failures (unless filling: fill holds all its processes until every one
// started), none once it tripped.
func (p *pool) admit(ctx context.Context, filling bool) error {
	for {
		p.mu.Lock()
		switch {
		case p.breaker.dead != "":
			p.mu.Unlock()
			return &UnresponsiveError{p.cfg.Port, p.breaker.dead}
		case p.closed:
			p.mu.Unlock()
			return fmt.Errorf("harness: adapter pool of %q is closed", p.cfg.Port)
		case p.inUse < p.size && (filling || p.inUse < p.breaker.limit(p.size)):
			p.inUse++
			p.mu.Unlock()
			return nil
		}
		wake := p.changed
		p.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return fmt.Errorf("harness: no adapter process free: %w", ctx.Err())
		}
	}
}

// Acquire returns a live adapter for one scenario; Release must give it back. A process that
// will not start or say hello is a strike.
func (p *pool) Acquire(ctx context.Context) (*adapter.Process, error) {
	return p.acquire(ctx, false)
}

func (p *pool) acquire(ctx context.Context, filling bool) (*adapter.Process, error) {
	if err := p.admit(ctx, filling); err != nil {
		return nil, err
	}
	p.mu.Lock()
	var stale []*adapter.Process // broke while idle (exited): closed once mu is released
	defer func() {
		for _, proc := range stale {
			p.retire(proc)
		}
	}()
	for len(p.idle) > 0 {
		proc := p.idle[len(p.idle)-1]
		p.idle = p.idle[:len(p.idle)-1]
		if !proc.IsBroken() {
			p.mu.Unlock()
			return proc, nil
		}
		stale = append(stale, proc)
	}
	waitFrom, after := time.Now(), p.filled
	defer func() {
		if after {
			p.mu.Lock()
			p.waits++
			p.waited += time.Since(waitFrom)
			p.mu.Unlock()
		}
	}()
	if p.pending > 0 {
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
			p.leave()
			p.mu.Unlock()
			return nil, fmt.Errorf("harness: no adapter process free: %w", ctx.Err())
		}
		p.mu.Lock()
	}
	p.mu.Unlock()
	proc, err := p.start(ctx)
	if err != nil {
		p.mu.Lock()
		if ctx.Err() == nil && p.ctx.Err() == nil { // a stopped run or scenario is not the adapter's failure
			p.breaker.strike(firstLine(err.Error()))
		}
		p.leave()
		p.mu.Unlock()
		if ctx.Err() == nil && p.ctx.Err() != nil {
			return nil, fmt.Errorf("no new adapter: the run was stopped (%s)", cause(p.ctx))
		}
		return nil, err
	}
	return proc, nil
}

// Release gives a process back and reports whether it counted as a strike. A broken one is
// closed (its process group killed) and a replacement started at once, so the next scenario
// does not wait for a whole start-up. cutAtBound says the scenario abandoned it at a pinned
// bound: that replaces the process but is not a strike (see BreakerThreshold).
func (p *pool) Release(proc *adapter.Process, cutAtBound bool) (struck bool) {
	if proc == nil {
		return false
	}
	var why string
	broken := proc.IsBroken()
	if broken {
		// A broken process answers any call with the reason it broke, without writing.
		_, err := proc.Call(context.Background(), "hello", nil)
		why = firstLine(fmt.Sprint(err))
	}
	p.mu.Lock()
	if broken {
		p.breaker.lastStderr = proc.StderrTail()
		if !cutAtBound && p.ctx.Err() == nil {
			p.breaker.strike(why)
			struck = true
		}
	}
	switch {
	case p.closed || (broken && p.breaker.dead != ""):
		p.leave()
		p.mu.Unlock()
		p.retire(proc)
	case broken:
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
		p.leave()
		p.mu.Unlock()
		for i := range n {
			go func() {
				defer p.replacing.Done()
				if i == 0 {
					p.retire(proc)
				}
				fresh, err := p.start(p.ctx)
				if err != nil {
					// Not a strike by itself: the Acquire that waits for it starts its own,
					// which strikes and says why if it fails too.
					fresh = nil
				}
				p.fresh <- fresh
			}()
		}
	default:
		p.idle = append(p.idle, proc)
		p.leave()
		p.mu.Unlock()
	}
	return struck
}

// ScenarioDone ends one scenario for the breaker: one whose adapter answered every call it was
// sent (clean) resets the count.
func (p *pool) ScenarioDone(clean bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if clean && p.breaker.dead == "" && p.breaker.strikes > 0 {
		p.breaker.strikes = 0
		p.notify()
	}
}

// unresponsive says why the breaker tripped, "" while it has not.
func (p *pool) unresponsive() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.breaker.dead
}

// stderrTail is the stderr of the last process that broke or failed to start.
func (p *pool) stderrTail() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.breaker.lastStderr
}

// retire closes a process for good and keeps what it left outside its process group.
func (p *pool) retire(proc *adapter.Process) {
	proc.Close()
	if leaks := proc.Leaks(); len(leaks) > 0 {
		p.mu.Lock()
		p.leaks = append(p.leaks, leaks...)
		p.mu.Unlock()
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
		p.retire(proc)
		if proc, err = p.launch(ctx); err != nil {
			return nil, err
		}
	}
	p.mu.Lock()
	p.starts++
	p.spent += time.Since(began)
	if p.filled {
		p.replaced++
		p.replaceSpent += time.Since(began)
	}
	p.mu.Unlock()
	return proc, nil
}

func (p *pool) launch(ctx context.Context) (*adapter.Process, error) {
	if ctx.Err() != nil {
		return nil, fmt.Errorf("no new adapter: %w", ctx.Err())
	}
	proc, err := adapter.Start(p.cfg)
	if err != nil {
		return nil, err
	}
	r, err := proc.Call(ctx, "hello", nil)
	if err == nil && !r.OK {
		err = fmt.Errorf("hello failed: %s", r.Error.Message)
	}
	if err != nil {
		p.mu.Lock()
		p.breaker.lastStderr = proc.StderrTail()
		p.mu.Unlock()
		p.retire(proc)
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

// maxIdentity caps each hello field (library, version, runtime) as reports show it.
const maxIdentity = 200

// hello starts (or reuses) one process and returns the port's identity.
func (p *pool) hello(ctx context.Context) (map[string]any, error) {
	proc, err := p.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	r, err := proc.Call(ctx, "hello", nil)
	p.Release(proc, false)
	if err != nil {
		return nil, err
	}
	// The identity is printed and reported: it must not carry the adapter's raw bytes, nor
	// a megabyte of them.
	for k, v := range r.Result {
		if s, ok := v.(string); ok {
			r.Result[k] = safetext.Short(s, maxIdentity)
		}
	}
	return r.Result, nil
}

// fill starts every process the pool may hand out, side by side, before any scenario runs:
// then no timing-bound scenario shares the machine with this implementation's own start-up
// (a JVM's class loading and JIT starve a neighbour's 100 ms cancel on a 2-core machine).
func (p *pool) fill(ctx context.Context) {
	n := p.size
	got := make(chan *adapter.Process, n)
	for range n {
		go func() {
			proc, _ := p.acquire(ctx, true) // one that will not start fails its scenario later, with why
			got <- proc
		}()
	}
	// Hand them back only once all are started, or an Acquire would reuse one.
	procs := make([]*adapter.Process, 0, n)
	for range n {
		procs = append(procs, <-got)
	}
	for _, proc := range procs {
		p.Release(proc, false)
	}
	p.mu.Lock()
	p.filled = true
	p.mu.Unlock()
}

// close shuts every idle process down (scenarios have released theirs by now) and returns
// every leak seen since the last close; a second close is a no-op.
func (p *pool) close() []adapter.Leak {
	p.mu.Lock()
	p.closed = true
	p.notify()
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
		go func() { defer wg.Done(); p.retire(proc) }()
	}
	wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	leaks := p.leaks
	p.leaks = nil
	return leaks
}

// replacements is how many processes were started after the fill and their mean start, and
// how many Acquires waited for a start and for how long in all.
func (p *pool) replacements() (n int, mean time.Duration, waits int, waited time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.replaced > 0 {
		mean = p.replaceSpent / time.Duration(p.replaced)
	}
	return p.replaced, mean, p.waits, p.waited
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
