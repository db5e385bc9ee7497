package suite

import (
	"runtime"
	"time"

	"github.com/muthuishere/toolnexus-conformance/steps"
)

// Timing is where one implementation's wall time went; `conformance bench` prints it.
// It never decides a verdict.
type Timing struct {
	Wall    time.Duration // the implementation's whole run, prepare included
	Prepare time.Duration // runners/<port>/prepare (build, venv, …)
	Start   time.Duration // mean time one adapter process took to start and answer hello
	Starts  int           // adapter processes started (the first, one per extra job, spares, replacements)
	// Replacements are the processes started after the pool's fill, each for one that was
	// discarded (broken, cut at a bound, retired for a retry); ReplaceStart is their mean
	// start (start, hello, warm-up).
	Replacements int
	ReplaceStart time.Duration
	// Waits counts the scenarios that found no live process free and waited for one to
	// start; Waited is the time they spent so.
	Waits     int
	Waited    time.Duration
	Scenarios time.Duration // wall time of the godog run (all scenarios, Jobs at a time)
	Jobs      int           // scenarios run at once
}

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
func AutoJobs(implementations int) int { return max(4, DefaultJobs()/max(1, implementations)) }

// Floor is the intrinsic floor of a run: the waits its scenarios cannot avoid even on a
// perfect port (each scenario's declared cancel, deadline or server timeout, see
// steps/bounds.go), spread over the jobs, and never less than the longest single one.
func Floor(out []steps.Outcome, jobs int) time.Duration {
	var sum, longest time.Duration
	for _, o := range out {
		sum += o.Floor
		longest = max(longest, o.Floor)
	}
	return max(longest, sum/time.Duration(max(jobs, 1)))
}
