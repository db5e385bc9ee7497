// Package kernel is the area-blind core of the step library (SPEC.md §3 "Areas on a kernel"):
// the scenario lifecycle, attempts and replays, calls with bounds, host-function dispatch by
// slot with the record of what each slot saw, per-area state created fresh per attempt on
// first use, and cleanup. Areas (steps/<area>/) bring their steps, state and slots; the
// engine (internal/suite) is handed a Library and runs it; neither knows the other's insides.
package kernel

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/internal/ports"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
	"github.com/muthuishere/toolnexus-conformance/schema"
)

// Env is what every scenario of one implementation's run shares.
type Env struct {
	Port string // the implementation's name (a result column: "python@0.15.0")
	// PortFolder is the port it belongs to (runners/<port>/: "python"; the reference: "go").
	PortFolder string
	// Family is the implementation's name without its release ("python" for python@0.15.0,
	// "reference"): what an X.3 baseline must be a release of.
	Family string
	// Facts are the port's runners/<port>/facts.json; FactsErr says why there are none.
	Facts    *ports.Facts
	FactsErr error
	// Adapters hands each scenario its own adapter process (lease.go).
	Adapters Adapters
	// Shared is what the areas opened for the whole run (Library.Open): the fake LLM.
	Shared Shared
	// StdioArgv starts the fake stdio MCP server; "--pid-file <path>" is appended.
	StdioArgv []string
	Root      string
	// UpdateGolden rewrites the golden copies from this run (only the Go reference should).
	UpdateGolden bool
	// ScenarioTimeout bounds every scenario; calls in flight are abandoned after it.
	ScenarioTimeout time.Duration
	// AsWritten runs every scenario with its limits as written (no quick first attempt).
	AsWritten bool
	// Baseline is the earlier release X.3 compares with; zero when none was named.
	Baseline Baseline
	// TempRoot holds the scenarios' temp dirs ("": the system's temp dir); the run removes
	// it whole, and the next run removes one a dead run left.
	TempRoot string
	// Supports is what the adapter's hello lists; nil: not known (every call is sent).
	Supports *Supports
	// Hooks are the engine's policies, asked as the scenarios run.
	Hooks Hooks
	seq   atomic.Int64
}

// Hooks are what the engine decides while scenarios run; each may be nil.
type Hooks struct {
	// Report receives each scenario's outcome.
	Report func(result.Outcome)
	// Skip is asked before each scenario; a non-empty status means the scenario is not run
	// at all (interrupted, adapter unresponsive): no adapter is started for it.
	Skip func() (result.Status, string)
	// Retry is asked after each attempt of a scenario whether to run it once more (attempts
	// so far given; suite/attempts.go). The runner owns the policy: it knows the expectations.
	Retry func(o result.Outcome, attempts int) bool
	// Admit is waited on before each scenario starts (its clock, fakes and bounds start
	// after it) and its release called when the scenario's last attempt is reported: the
	// run's job budget shared between implementations (suite/budget.go).
	Admit func(context.Context) (release func(), err error)
}

// Adapters is the pool a scenario takes its adapter process from.
type Adapters interface {
	Acquire(ctx context.Context) (*adapter.Process, error)
	// Release gives a process back; cutAtBound says the scenario abandoned it at a pinned
	// bound, which replaces it without counting against the adapter. It reports whether the
	// process counted as an adapter failure (a strike).
	Release(p *adapter.Process, cutAtBound bool) (struck bool)
	// ScenarioDone ends a scenario; clean says its adapter answered every call it was sent.
	ScenarioDone(clean bool)
}

// NotRun is implemented by an Acquire error that means the scenario is not run at all (the
// breaker gave up on the adapter): a scenario that never got a process reports that status.
type NotRun interface {
	NotRun() (result.Status, string)
}

// Baseline names the earlier release X.3 compares a port's bodies with (`--baseline
// python@0.8.0`) and where that release's bodies are kept. The run records them first, with
// Record set, on the baseline release alone; then every implementation of the same port
// compares its own bodies with them.
type Baseline struct {
	Impl   string // e.g. python@0.8.0
	Port   string // the port it is a release of ("python")
	Dir    string // one <name>.json list of bodies per compared request
	Record bool
}

// Shared holds, by area name, what each area opened for the whole run.
type Shared map[string]any

// Supports is what an adapter said hello with: the ops and slots it has, and the protocol
// that says which slots a call's arguments need. A call that needs what it lacks is
// unsupported before anything is sent (SPEC.md §3).
type Supports struct {
	Ops, Slots []string
	Protocol   *schema.Protocol
}

// lacks says what of op with args the adapter does not offer; "" when it offers all.
func (s *Supports) lacks(op string, args map[string]any) string {
	if s == nil {
		return ""
	}
	if !slices.Contains(s.Ops, op) {
		return "the adapter's hello does not list this op"
	}
	if s.Protocol != nil {
		for _, slot := range s.Protocol.SlotsNeeded(op, args) {
			if !slices.Contains(s.Slots, slot) {
				return fmt.Sprintf("the adapter's hello does not list the slot %s, which this call needs", slot)
			}
		}
	}
	return ""
}
