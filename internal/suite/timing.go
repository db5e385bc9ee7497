package suite

import (
	"runtime"
	"time"

	"github.com/muthuishere/toolnexus-conformance/steps"
)

// Timing is where one implementation's wall time went; `conformance bench` prints it.
// It never decides a verdict.
type Timing struct {
	Wall      time.Duration // the implementation's whole run, prepare included
	Prepare   time.Duration // runners/<port>/prepare (build, venv, …)
	Start     time.Duration // mean time one adapter process took to start and answer hello
	Starts    int           // adapter processes started (the first, one per extra job, replacements)
	Scenarios time.Duration // wall time of the godog run (all scenarios, Jobs at a time)
	Jobs      int           // scenarios run at once
}

// DefaultJobs is --jobs when not given: four adapters per core, between 2 and 8. Most scenario
// time is spent waiting on fakes and pinned bounds, not computing (the reference's suite uses
// about 3 s of CPU in 27 s of wall at 2 jobs); 8 jobs on 2 cores, with a CPU hog on each, gave
// 0 flaky verdicts in 20 full runs of the reference. More than 8 buys little: the floor is then
// a few long waits.
func DefaultJobs() int { return min(8, max(2, 4*runtime.NumCPU())) }

// AutoJobs shares DefaultJobs between the implementations of one run, at least 2 each: they
// all run at once on the same cores, and a JVM or CPython adapter starved of CPU misses the
// pinned bounds a correct port meets (seen: java at 8 jobs beside three other ports reached no
// tools/list before a 1.5 s cancel).
func AutoJobs(implementations int) int { return max(2, DefaultJobs()/max(1, implementations)) }

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
