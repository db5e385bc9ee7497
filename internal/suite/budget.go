package suite

import (
	"context"
	"sync"
	"time"
)

// budget is the scenarios a run of several implementations may have under way at once, all
// implementations together. Without it each implementation had a fixed share (AutoJobs), so
// once the quick ones were done the slowest went on alone on its share: in a go+js+java run,
// java (4 jobs) ran 39 s after go had finished and 14 s after js. With it each implementation
// may run up to DefaultJobs scenarios, and a freed slot goes to the implementation with the
// most work left (its scenarios not yet started times its mean scenario time so far), so
// the slowest is not left to finish alone. The total stays what the fixed shares gave, so
// the machine is never loaded more than before.
//
// A scenario takes its slot before its clock starts (steps.Env.Admit): waiting for one is
// never part of a scenario's time, its fakes or its bounds.
type budget struct {
	mu      sync.Mutex
	size    int
	held    int
	waiting []*waiter // in arrival order: ties go to the one that waited longest
}

// share is one implementation's use of the budget.
type share struct {
	b             *budget
	total         int // scenarios it will run
	started, done int
	spent         time.Duration // time its finished scenarios held their slots
}

type waiter struct {
	s     *share
	ready chan struct{} // closed when the slot is this waiter's
}

func newBudget(n int) *budget { return &budget{size: max(1, n)} }

// join adds an implementation that will run total scenarios; nil without a budget.
func (b *budget) join(total int) *share {
	if b == nil {
		return nil
	}
	return &share{b: b, total: total}
}

// left is the work the implementation has not started, as far as its pace so far tells;
// before any scenario of it finished, every implementation counts alike (arrival order).
func (s *share) left() time.Duration {
	if s.done == 0 {
		return 0
	}
	return time.Duration(s.total-s.started) * (s.spent / time.Duration(s.done))
}

// admit waits for a slot; release gives it back (once, however often it is called).
func (s *share) admit(ctx context.Context) (release func(), err error) {
	b := s.b
	b.mu.Lock()
	if b.held < b.size && len(b.waiting) == 0 {
		b.held++
		s.started++
		b.mu.Unlock()
		return s.releaser(), nil
	}
	w := &waiter{s: s, ready: make(chan struct{})}
	b.waiting = append(b.waiting, w)
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
			b.dispatch()
		})
	}
}

// dispatch hands free slots to the waiters with the most work left. Callers hold mu.
func (b *budget) dispatch() {
	for b.held < b.size && len(b.waiting) > 0 {
		best := 0
		for i, w := range b.waiting {
			if w.s.left() > b.waiting[best].s.left() {
				best = i
			}
		}
		w := b.waiting[best]
		b.waiting = append(b.waiting[:best], b.waiting[best+1:]...)
		b.held++
		w.s.started++
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
