package result

import "time"

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
	// ReplaceHello is the replacements' mean time from start to hello (no warm-up), ReplaceCPU
	// their mean CPU until hello (0 where /proc cannot say); Forked counts the starts a fork
	// server made (internal/adapter/fork_linux.go), replacements or not.
	ReplaceHello time.Duration
	ReplaceCPU   time.Duration
	Forked       int
	// Waits counts the scenarios that found no live process free and waited for one to
	// start; Waited is the time they spent so.
	Waits     int
	Waited    time.Duration
	Scenarios time.Duration // wall time of the godog run (all scenarios, Jobs at a time)
	Jobs      int           // scenarios run at once (at most)
	// Share, when the run's implementations shared one budget (suite/budget.go), is what this
	// one held at most while all of them ran; Jobs is then what it could grow to.
	Share int
}
