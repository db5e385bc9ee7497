package suite

import (
	"runtime"
	"time"

	"toolnexus-conformance/steps"
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

// DefaultJobs is --jobs when not given: one adapter per core, at least two, because most
// scenario time is spent waiting on fakes and pinned bounds, not computing.
func DefaultJobs() int { return max(2, runtime.NumCPU()) }

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
