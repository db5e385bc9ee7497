package suite

import (
	"context"
	"sync"
	"time"
)

// budget is the scenarios a run of several implementations may have under way at once, all
// implementations together. With fixed shares (AutoJobs) the slowest port finished alone on
// its share: in a go+js+java run, java (4 jobs) ran 39 s after go had finished and 14 s after
// js. Here the slots of an implementation that is done (or still preparing) go to the ones
// still running: each may hold the budget over the number still running, at most
// DefaultJobs. While all run, that is the fixed share: in a five-port run on a loaded 2-core
// machine, java allowed 8 jobs from the start missed the precondition of three teardown
// checks, which it did not with its fixed 4. Among the waiters a slot goes to the one with
// the most work left (its scenarios not yet started times its mean scenario time so far).
//
// A scenario takes its slot before its clock starts (steps.Env.Admit): waiting for one is
// never part of a scenario's time, its fakes or its bounds.
type budget struct {
	mu      sync.Mutex
	size    int
	held    int
	active  int       // implementations joined and not yet done
	waiting []*waiter // in arrival order: ties go to the one that waited longest
}

// share is one implementation's use of the budget.
type share struct {
	b             *budget
	total         int // scenarios it will run
	held          int
	started, done int
	spent         time.Duration // time its finished scenarios held their slots
}

type waiter struct {
	s     *share
	ready chan struct{} // closed when the slot is this waiter's
}

func newBudget(n int) *budget { return &budget{size: max(1, n)} }

// join adds an implementation that will run total scenarios; nil without a budget. Its
// leave must follow once it has run them.
func (b *budget) join(total int) *share {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.active++
	return &share{b: b, total: total}
}

// leave says the implementation has run its scenarios: its part of the budget goes to the
// others.
func (s *share) leave() {
	if s == nil {
		return
	}
	b := s.b
	b.mu.Lock()
	defer b.mu.Unlock()
	b.active--
	b.dispatch()
}

// limit is how many slots one implementation may hold now. Callers hold mu.
func (b *budget) limit() int { return max(1, min(DefaultJobs(), b.size/max(1, b.active))) }

// left is the work the implementation has not started, as far as its pace so far tells;
// before any scenario of it finished, every implementation counts alike (arrival order).
func (s *share) left() time.Duration {
	if s.done == 0 {
		return 0
	}
	return time.Duration(s.total-s.started) * (s.spent / time.Duration(s.done))
}

// take gives s one slot. Callers hold mu.
func (s *share) take() {
	s.b.held++
	s.held++
	s.started++
}

// admit waits for a slot; release gives it back (once, however often it is called).
func (s *share) admit(ctx context.Context) (release func(), err error) {
	b := s.b
	w := &waiter{s: s, ready: make(chan struct{})}
	b.mu.Lock()
	b.waiting = append(b.waiting, w)
	b.dispatch() // a free slot under the limit is taken at once
	b.mu.Unlock()
	select {
	case <-w.ready:
		return s.releaser(), nil
	case <-ctx.Done():
		b.mu.Lock()
		defer b.mu.Unlock()
		for i, x := range b.waiting {
			if x == w {
				b.waiting = append(b.waiting[:i], b.waiting[i+1:]...)
				return func() {}, ctx.Err()
			}
		}
		// Handed the slot just as the run stopped: pass it on.
		b.held--
		s.held--
		s.started--
		b.dispatch()
		return func() {}, ctx.Err()
	}
}

func (s *share) releaser() func() {
	began := time.Now()
	var once sync.Once
	return func() {
		once.Do(func() {
			b := s.b
			b.mu.Lock()
			defer b.mu.Unlock()
			s.done++
			s.spent += time.Since(began)
			b.held--
			s.held--
			b.dispatch()
		})
	}
}

// dispatch hands free slots to the waiters under their limit with the most work left.
// Callers hold mu.
func (b *budget) dispatch() {
	for b.held < b.size {
		best := -1
		for i, w := range b.waiting {
			if w.s.held >= b.limit() {
				continue
			}
			if best < 0 || w.s.left() > b.waiting[best].s.left() {
				best = i
			}
		}
		if best < 0 {
			return
		}
		w := b.waiting[best]
		b.waiting = append(b.waiting[:best], b.waiting[best+1:]...)
		w.s.take()
		close(w.ready)
	}
}

// admitter is steps.Env.Admit for this share; nil (no waiting) without a budget.
func (s *share) admitter() func(context.Context) (func(), error) {
	if s == nil {
		return nil
	}
	return s.admit
}
