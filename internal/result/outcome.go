package result

import "time"

// Status is what became of one scenario. Judging turns it into a verdict.
type Status string

// Scenario statuses.
const (
	StatusPass        Status = "pass"
	StatusFail        Status = "fail"
	StatusUnsupported Status = "unsupported"
	// StatusInterrupted: the run was stopped (SIGINT, SIGTERM, --run-timeout) before or while
	// the scenario ran; it has no verdict of its own.
	StatusInterrupted Status = "not run (interrupted)"
	// StatusUnresponsive: the implementation's breaker tripped before the scenario started.
	StatusUnresponsive Status = "not run (adapter unresponsive)"
	// StatusInconclusive: a precondition the scenario is about never came to be on the fakes
	// (a child that never started, a stall the client never reached): it proves nothing
	// about the port, either way.
	StatusInconclusive Status = "inconclusive"
)

// Outcome is one scenario's result with its evidence.
type Outcome struct {
	Scenario string
	URI      string
	Tags     []string
	// AstNodeIDs are godog's pickle AST ids: the scenario and, for an outline, its example row.
	AstNodeIDs []string
	Status     Status
	Message    string
	// Stable is Message with each go-cmp diff in it replaced by the values compared (set
	// only when it holds one): what the fingerprint hashes, since go-cmp renders the same
	// diff differently from one process to the next (steps/mismatch.go).
	Stable  string `json:",omitempty"`
	Bodies  []map[string]any
	Stderr  string
	Elapsed time.Duration
	// Golden names the reference body file a parity step compared against, if any.
	Golden string
	// Returned is what the library returned to a contract scenario's ops (X.4), normalised;
	// the run compares it with the reference's (internal/parity), never as a verdict.
	Returned any `json:",omitempty"`
	// Order is the scenario's place in the run's feature order (godog's pickle id), so a
	// parallel run's outcomes sort back into the order a sequential run reports.
	Order int
	// Floor is the time the scenario must wait even on a perfect port: the pinned waits
	// it declares (a cancel after N ms, a server timeout …; see internal/timing).
	Floor time.Duration
	// Quick says the verdict was earned on a quick first attempt (limits cut to
	// timing.QuickLimit); Retried says why that attempt proved nothing, so the scenario was
	// judged as written.
	Quick   bool
	Retried string
	// Settled is the longest time the port took, after a call, to end the children and
	// connections a teardown check waited for (only checks that passed).
	Settled time.Duration
	// Waited is what the port's own failures made the scenario wait: a call cut at its bound
	// (bound + margin), a teardown check that ran out its grace. Zero on a passing scenario.
	Waited time.Duration
	// Final marks an attempt another attempt would repeat: an inconclusive one whose port was
	// cut at the hang guard, or a failure blocked by a feature the port lacks (kernel.Blocked).
	// It is not tried again.
	Final bool `json:",omitempty"`
	// Harness is set when the scenario is at fault, not the port: its declared timing
	// disagrees with its steps. The run reports it as a harness error at the scenario's
	// file:line.
	Harness string `json:",omitempty"`
	// Attempts holds every attempt when the scenario ran more than once (suite/attempts.go), in
	// order; the fields above are the last attempt's. Empty when it ran once.
	Attempts []Attempt `json:",omitempty"`
}

// FingerprintText is what the failure's fingerprint is computed from.
func (o Outcome) FingerprintText() string {
	if o.Stable != "" {
		return o.Stable
	}
	return o.Message
}

// Attempt is one run of a scenario that was tried more than once.
type Attempt struct {
	Status  Status
	Message string
	Stable  string `json:",omitempty"`
	Elapsed time.Duration
}

// AsAttempt is the outcome as one of several attempts.
func (o Outcome) AsAttempt() Attempt {
	return Attempt{Status: o.Status, Message: o.Message, Stable: o.Stable, Elapsed: o.Elapsed}
}
