package suite

import (
	"context"
	"fmt"
	"maps"
	"sync"
	"sync/atomic"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/internal/safetext"
)

// pool hands each running scenario its own adapter process, so the scenarios of one
// implementation can run side by side (--jobs). At most size processes are in use at
// once; a process comes back to the idle list after its scenario, and one that broke
// (crashed, timed out, was abandoned at a bound, was retired for a retry) is closed and
// never handed out again.
//
// Warm spares: the pool keeps a few processes more than size started, hello said and warmed
// up, so a scenario after a discard takes a ready one instead of waiting for a runtime start
// (a JVM, CPython importing the library: seconds on a loaded machine). Each discard starts
// its replacement in the background at once. A spare is a separate fresh process, started
// like any other: nothing of the discarded one carries over (that one and its children are
// killed and judged for leaks as before).
//
// The pool holds the implementation's breaker (breaker.go): failures are counted across all
// its processes, and once it trips no process is handed out or started any more.
type pool struct {
	cfg    adapter.Config
	size   int
	ctx    context.Context
	cancel context.CancelFunc // ends spares still starting when the run is over

	starting sync.WaitGroup // background starts, waited for by close
	retiring sync.WaitGroup // background kills of discarded processes, waited for by close

	mu       sync.Mutex
	inUse    int           // scenarios holding a process (or being given one)
	changed  chan struct{} // closed (and renewed) when inUse, idle, a start or the breaker changes
	idle     []*adapter.Process
	live     int  // processes started or starting and not yet retired: held, idle, spares
	inFlight int  // background starts not yet done
	spares   int  // processes the pool keeps beyond size once filled (see topUp)
	filled   bool // fill is over: every start from now on is a spare
	closed   bool
	breaker  breaker
	leaks    []adapter.Leak // left by every process closed so far

	starts       int           // processes started, for the bench's start-up figure
	spent        time.Duration // time spent starting them (start, hello, warm-up)
	replaced     int           // processes started after the fill
	replaceSpent time.Duration // time spent starting those
	replaceHello time.Duration // their time from start to hello
	replaceCPU   time.Duration // their own CPU until hello
	forked       int           // processes a fork server made
	waits        int           // Acquires that found no process ready and waited for a start
	waited       time.Duration // time they waited

	helloOps []any          // the ops the adapter said hello with
	identity map[string]any // the first hello's result: the port's identity
	noWarm   atomic.Bool    // a warm-up broke an adapter: start the others cold
	// warm readies a new adapter before its first scenario (the areas' warm-ups; nil: none).
	warm func(ctx context.Context, p *adapter.Process, ops []any) bool
	// discarded, when set, is told why a spare that would not start was dropped.
	discarded func(why string)
}

// Spares: one from the fill; a second once a scenario still had to wait (discards come in
// bursts: a port that ignores cancels is cut at several bounds at once), never more than the
// jobs. Each is a whole adapter process (a JVM holds 100 MB or more), hence so few.
const (
	firstSpares = 1
	maxSpares   = 2
)

func newPool(ctx context.Context, cfg adapter.Config, size, threshold int) *pool {
	if size < 1 {
		size = 1
	}
	ctx, cancel := context.WithCancel(ctx)
	return &pool{cfg: cfg, size: size, ctx: ctx, cancel: cancel, changed: make(chan struct{}),
		breaker: breaker{threshold: threshold}}
}

// notify wakes every Acquire waiting for room or for a process. Callers hold mu.
func (p *pool) notify() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// leave gives up one in-use place. Callers hold mu.
func (p *pool) leave() {
	p.inUse--
	p.notify()
}

// topUp starts, in the background, as many processes as keep size + spares alive. Callers
// hold mu. Nothing is started before the fill, after close or once the breaker tripped.
func (p *pool) topUp() {
	for p.filled && !p.closed && p.breaker.dead == "" && p.ctx.Err() == nil && p.live < p.size+p.spares {
		p.live++
		p.inFlight++
		p.starting.Add(1)
		go p.startSpare()
	}
}

// startSpare starts one process for the idle list. One that will not start is not a strike
// by itself: an Acquire that finds nothing ready starts its own, which strikes and says why
// if it fails too; so a failed spare is not started again here.
func (p *pool) startSpare() {
	defer p.starting.Done()
	proc, err := p.start(p.ctx)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.inFlight--
	if err != nil {
		p.live--
		if p.discarded != nil && p.ctx.Err() == nil {
			p.discarded(safetext.Line(firstLine(err.Error())))
		}
	} else {
		p.idle = append(p.idle, proc) // close retires it if the run ended meanwhile
	}
	p.notify()
}

// admit waits for room to hold one more process: fewer than size in use, fewer still while
// the breaker counts failures, none once it tripped.
func (p *pool) admit(ctx context.Context) error {
	for {
		p.mu.Lock()
		switch {
		case p.breaker.dead != "":
			p.mu.Unlock()
			return &UnresponsiveError{p.cfg.Port, p.breaker.dead}
		case p.closed:
			p.mu.Unlock()
			return fmt.Errorf("harness: adapter pool of %q is closed", p.cfg.Port)
		case p.inUse < p.breaker.limit(p.size):
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
	if err := p.admit(ctx); err != nil {
		return nil, err
	}
	var stale []*adapter.Process // broke while idle (exited): closed once mu is released
	defer func() {
		for _, proc := range stale {
			p.retire(proc)
		}
	}()
	var waitFrom time.Time // set when this Acquire found nothing ready
	p.mu.Lock()
	for {
		for len(p.idle) > 0 {
			proc := p.idle[len(p.idle)-1]
			p.idle = p.idle[:len(p.idle)-1]
			if !proc.IsBroken() {
				p.waitedSince(waitFrom)
				p.mu.Unlock()
				return proc, nil
			}
			stale = append(stale, proc)
			p.live--
			p.topUp()
		}
		if waitFrom.IsZero() && p.filled {
			waitFrom = time.Now()
			// The spares were not enough: keep one more from now on.
			p.spares = min(maxSpares, p.size, p.spares+1)
			p.topUp()
		}
		if p.inFlight == 0 {
			break
		}
		// A spare is on its way: wait for it rather than start one more.
		wake := p.changed
		p.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			p.mu.Lock()
			p.waitedSince(waitFrom)
			p.leave()
			p.mu.Unlock()
			return nil, fmt.Errorf("harness: no adapter process free: %w", ctx.Err())
		}
		p.mu.Lock()
	}
	p.live++
	p.mu.Unlock()
	proc, err := p.start(ctx)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.waitedSince(waitFrom)
	if err != nil {
		p.live--
		if ctx.Err() == nil && p.ctx.Err() == nil { // a stopped run or scenario is not the adapter's failure
			p.breaker.strike(firstLine(err.Error()))
		}
		p.leave()
		if ctx.Err() == nil && p.ctx.Err() != nil {
			return nil, fmt.Errorf("no new adapter: the run was stopped (%s)", cause(p.ctx))
		}
		return nil, err
	}
	return proc, nil
}

// waitedSince counts one Acquire's wait for a process to start, if it had to. Callers hold mu.
func (p *pool) waitedSince(from time.Time) {
	if !from.IsZero() {
		p.waits++
		p.waited += time.Since(from)
	}
}

// Release gives a process back and reports whether it counted as a strike. A broken one is
// closed (its process group killed) and a spare started in its place at once. cutAtBound says
// the scenario abandoned it at a pinned bound: that replaces the process but is not a strike
// (see BreakerThreshold).
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
	if p.closed { // given back after close, which did not see it
		p.leave()
		p.mu.Unlock()
		p.retire(proc)
		return false
	}
	if !broken {
		p.idle = append(p.idle, proc)
		p.leave()
		p.mu.Unlock()
		return false
	}
	p.breaker.lastStderr = proc.StderrTail()
	if !cutAtBound && p.ctx.Err() == nil {
		p.breaker.strike(why)
		struck = true
	}
	p.live--
	p.topUp()
	p.leave()
	p.retiring.Add(1)
	p.mu.Unlock()
	// In the background: the scenario need not wait for the kill and the leak sweep, and the
	// replacement's start overlaps them.
	go func() {
		defer p.retiring.Done()
		p.retire(proc)
	}()
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
	hello, cpu := time.Since(began), proc.CPU()
	if p.warm != nil && !p.noWarm.Load() && !p.warm(ctx, proc, p.ops(proc)) {
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
		p.replaceHello += hello
		p.replaceCPU += cpu
	}
	if proc.Forked() {
		p.forked++
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
		p.identity = r.Result
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
	// The identity is the start's own hello (judged by the start deadline): a second hello
	// would meet the call deadline on a loaded machine for nothing.
	p.mu.Lock()
	r := &adapter.Response{Result: maps.Clone(p.identity)}
	p.mu.Unlock()
	if r.Result == nil {
		if r, err = proc.Call(ctx, "hello", nil); err != nil {
			p.Release(proc, false)
			return nil, err
		}
	}
	p.Release(proc, false)
	// The identity is printed and reported: it must not carry the adapter's raw bytes, nor
	// a megabyte of them.
	for k, v := range r.Result {
		if s, ok := v.(string); ok {
			r.Result[k] = safetext.Short(s, maxIdentity)
		}
	}
	return r.Result, nil
}

// fill starts every process the pool may hand out, and the first spare, side by side, before
// any scenario runs: then no timing-bound scenario shares the machine with this
// implementation's own start-up (a JVM's class loading and JIT starve a neighbour's 100 ms
// cancel on a 2-core machine). A process that will not start is a strike, as in Acquire; its
// scenario starts one itself later and fails with why.
func (p *pool) fill(ctx context.Context) {
	p.mu.Lock()
	p.spares = min(firstSpares, p.size)
	n := max(0, p.size+p.spares-p.live) // hello's process is live already
	p.live += n
	p.mu.Unlock()
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			proc, err := p.start(ctx)
			p.mu.Lock()
			defer p.mu.Unlock()
			if err != nil {
				p.live--
				if ctx.Err() == nil && p.ctx.Err() == nil {
					p.breaker.strike(firstLine(err.Error()))
				}
				p.notify()
				return
			}
			p.idle = append(p.idle, proc)
		}()
	}
	wg.Wait()
	p.mu.Lock()
	p.filled = true
	p.mu.Unlock()
}

// close shuts every idle process down (scenarios have released theirs by now), spares
// included, and returns every leak seen since the last close; a second close is a no-op.
func (p *pool) close() []adapter.Leak {
	p.mu.Lock()
	p.closed = true
	p.notify()
	p.mu.Unlock()
	p.cancel()
	p.starting.Wait()
	p.retiring.Wait()
	p.mu.Lock()
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, proc := range idle {
		wg.Add(1)
		go func() { defer wg.Done(); p.retire(proc) }()
	}
	wg.Wait()
	if p.cfg.Fork != nil {
		p.cfg.Fork.Close() // after its children: theirs is the runner's kill, not the server's
	}
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

// replaceCost is the replacements' mean start-to-hello time and CPU, and how many processes in
// all a fork server made.
func (p *pool) replaceCost() (hello, cpu time.Duration, forked int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.replaced > 0 {
		hello, cpu = p.replaceHello/time.Duration(p.replaced), p.replaceCPU/time.Duration(p.replaced)
	}
	return hello, cpu, p.forked
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
