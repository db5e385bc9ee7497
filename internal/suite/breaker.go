package suite

import (
	"fmt"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// BreakerThreshold is how many consecutive adapter failures make an implementation
// unresponsive: its remaining scenarios are not run and the run is red. A failure (a strike)
// is a call that broke its process (no answer within the call deadline, a crash, a protocol
// break) or a process that will not start or say hello. A call cut at its scenario's pinned
// bound (steps/bounds.go) is the port's own failure on that scenario, not a strike. A
// scenario whose adapter answered every call it was sent resets the count; one cut at a bound
// neither strikes nor resets. A hang strikes whether or not its scenario is tried again, and
// its retry waits only a third of the deadline for the same call (kernel.HungRetryShare), so a
// hung adapter costs about a deadline and a third (the pool lets no more scenarios hold a
// process than strikes are left, see breaker.limit).
const BreakerThreshold = 2

// UnresponsiveError is what steps get from an implementation the breaker gave up on.
type UnresponsiveError struct{ Port, Why string }

func (e *UnresponsiveError) Error() string {
	return fmt.Sprintf("adapter %q is unresponsive: %s", e.Port, e.Why)
}

// NotRun tells the steps that a scenario stopped by this error never ran (steps.NotRun).
func (e *UnresponsiveError) NotRun() (result.Status, string) {
	return result.StatusUnresponsive, notRunUnresponsive(e.Why)
}

func notRunUnresponsive(why string) string {
	return "not run: adapter unresponsive (" + why + ")"
}

// breaker counts one implementation's consecutive adapter failures across all its processes.
// The pool holds its lock around every use.
type breaker struct {
	threshold  int
	strikes    int
	dead       string // why the breaker tripped
	lastStderr string // the last broken or failed process's stderr tail, for a broken verdict
}

// strike records one adapter failure.
func (b *breaker) strike(why string) {
	b.strikes++
	if b.strikes >= b.threshold && b.dead == "" {
		b.dead = fmt.Sprintf("%d consecutive adapter failures, the last: %s", b.strikes, why)
	}
}

// limit is how many scenarios may hold a process at once: all jobs while nothing failed;
// after a failure no more than strikes are left, so scenarios already running on a hung
// adapter cannot fail past the threshold side by side.
func (b *breaker) limit(jobs int) int {
	if b.strikes == 0 {
		return jobs
	}
	return max(1, min(jobs, b.threshold-b.strikes))
}
