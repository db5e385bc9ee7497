package resilience

import (
	"fmt"
	"strconv"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
)

// State is what the scenario's onError answers per HTTP status, and when the last run
// returned on the runner's clock (the fake LLM's too: one process).
type State struct {
	answers map[int]string
	ended   time.Time
	mode    string // the last timed run's mode, run or stream
	// started and cancelAfter: when the last timed run began and, for a cancelled one, after
	// how long its cancel fired, on the same clock as the fake's stamps.
	started     time.Time
	cancelAfter time.Duration
}

func (s *State) Init(*kernel.Attempt) { s.answers = map[int]string{} }

// slotOnError answers the scenario's tier for the status; for any other failure, the
// default classifier's answer (retryable ⇒ "retry", else "fail", §8), read from what the
// port itself said is retryable.
func slotOnError(a *kernel.Attempt, args map[string]any) adapter.Answer {
	s := kernel.Get[State](a)
	for status, t := range s.answers {
		if fmt.Sprint(args["status"]) == strconv.Itoa(status) {
			return adapter.Answer{Value: t}
		}
	}
	switch args["retryable"] {
	case true:
		return adapter.Answer{Value: "retry"}
	case false:
		return adapter.Answer{Value: "fail"}
	}
	return adapter.Answer{Error: fmt.Sprintf("runner: onError was given no retryable flag: %v", args)}
}
