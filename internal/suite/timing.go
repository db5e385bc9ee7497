package suite

import (
	"runtime"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// DefaultJobs is --jobs when not given: four adapters per core, between 2 and 8. Most scenario
// time is spent waiting on fakes and pinned bounds, not computing (the reference's suite uses
// about 3 s of CPU in 27 s of wall at 2 jobs); 8 jobs on 2 cores, with a CPU hog on each, gave
// 0 flaky verdicts in 20 full runs of the reference. More than 8 buys little: the floor is then
// a few long waits.
func DefaultJobs() int { return min(8, max(2, 4*runtime.NumCPU())) }

// AutoJobs shares DefaultJobs between the implementations of one run, at least 4 each. A
// failing port spends most of its scenarios idle (a 5 s teardown grace, a cut at a bound), so
// more processes mostly overlap waits. Fewer than 4 used to be the guard against a starved
// JVM or CPython missing a stall before a 1.5 s cancel; the quick first attempt
// (steps/quick.go) now turns such a miss into a run as written, not a verdict. Measured on 2
// cores, reference+go+python+js+java: 70.5 s at 2 each, 45.1 s at 4 each, same verdicts.
// Without --jobs it is the share each implementation holds while all run (budget.go).
func AutoJobs(implementations int) int { return max(4, DefaultJobs()/max(1, implementations)) }

// Floor is the intrinsic floor of a run: the waits its scenarios cannot avoid even on a
// perfect port (each scenario's declared cancel, deadline or server timeout, see
// steps/bounds.go), spread over the jobs, and never less than the longest single one.
func Floor(out []result.Outcome, jobs int) time.Duration {
	var sum, longest time.Duration
	for _, o := range out {
		sum += o.Floor
		longest = max(longest, o.Floor)
	}
	return max(longest, sum/time.Duration(max(jobs, 1)))
}
