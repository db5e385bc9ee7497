// Package steps holds the godog step definitions. Steps speak only the adapter protocol
// and read what the fakes recorded; all per-scenario state lives in one World.
package steps

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cucumber/godog"

	"github.com/muthuishere/toolnexus-conformance/fakes/llm"
	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/internal/ports"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
	"github.com/muthuishere/toolnexus-conformance/internal/safetext"
)

// Env is what every scenario of one port's run shares.
type Env struct {
	Port string
	// Adapters hands each scenario its own adapter process (see adapter_lease.go).
	Adapters Adapters
	LLM      *llm.Server
	// StdioArgv starts the fake stdio MCP server; "--pid-file <path>" is appended.
	StdioArgv []string
	Root      string
	// Facts are the port's runners/<port>/facts.json (deadline kind, pre-change key sets);
	// FactsErr says why there are none.
	Facts    *ports.Facts
	FactsErr error
	// UpdateGolden rewrites fixtures/golden from this run (only the Go reference should).
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
	// Report receives each scenario's outcome.
	Report func(result.Outcome)
	// Skip, when set, is asked before each scenario; a non-empty status means the scenario is
	// not run at all (interrupted, adapter unresponsive): no adapter is started for it.
	Skip func() (result.Status, string)
	// Retry, when set, is asked after each attempt of a scenario whether to run it once more
	// (attempts so far given; suite/attempts.go). The runner owns the policy: it knows the
	// expectations.
	Retry func(o result.Outcome, attempts int) bool
	// Admit, when set, is waited on before each scenario starts (its clock, fakes and
	// bounds start after it) and its release called when the scenario's last attempt is
	// reported: the run's job budget shared between implementations (suite/budget.go).
	Admit func(context.Context) (release func(), err error)
	seq   atomic.Int64
}

// Inconclusive marks a precondition the fakes never saw (see result.StatusInconclusive).
// Final says no other attempt can reach it either (result.Outcome.Final).
type Inconclusive struct {
	Why   string
	Final bool
}

func (e *Inconclusive) Error() string { return "inconclusive: " + e.Why }

// Unsupported marks a step the port (or its adapter) cannot express.
type Unsupported struct{ Op, Message string }

func (u *Unsupported) Error() string { return fmt.Sprintf("unsupported: %s: %s", u.Op, u.Message) }

// World is one scenario's state.
type World struct {
	env    *Env
	ctx    context.Context
	cancel context.CancelFunc
	id     int64
	dir    string
	route  *llm.Route

	proc       *adapter.Process // this scenario's adapter, from env.Adapters
	bounds     bounds           // pinned timing (bounds.go)
	stderrMark int64            // proc's stderr position when the scenario took it
	lease      lease            // how the scenario used the pool (adapter_lease.go)
	table      *stepTable       // this scenario's steps, for a replay (quick.go)
	quick      *quickPlan       // the quick first attempt, nil when it runs as written

	client      map[string]any // client.create args, sent on first use
	clientReady bool
	host        *hostFns // what the host functions do and saw (host_functions.go)
	toolkit     string
	toolkits    []string

	mcp *mcpState

	// The shared contract's tool surface (contract_tools.go): extra tools for the next build,
	// and the last result of each contract op.
	extraTools                               []any
	builtins                                 bool         // the next build turns the built-in tools on
	responses                                []opResponse // every response, for the secret scan
	described, executed, rendered, sanitized map[string]any

	last        *adapter.Response
	lastOp      string
	lastElapsed time.Duration
	lastLimit   time.Duration // the caller's cancel or deadline of the last MCP call, as sent
	warnings    []string
	results     []map[string]any // results of client.run / client.ask
	stored      map[string]any   // last store.get result
	golden      string           // golden copy a parity step compared against
	builds      [][]string       // sorted tool names of each repeated toolkit build
	settled     time.Duration    // longest wait for a port's children and connections to end
	waited      time.Duration    // waits the port's own failures cost (a cut at a bound, a grace run out)
}

// Register binds every step to a fresh World; godog calls it once per scenario. A scenario
// the runner wants tried again (Env.Retry) is replayed whole in After, on a new World with
// fresh fakes and a fresh adapter; the outcome reported carries every attempt.
func Register(env *Env) func(*godog.ScenarioContext) {
	return func(sc *godog.ScenarioContext) {
		w := newWorld(env, &stepTable{next: sc})
		var started time.Time
		var skipped result.Status
		var skipWhy string
		var parent context.Context
		release := func() {}
		sc.Before(func(ctx context.Context, s *godog.Scenario) (context.Context, error) {
			if env.Admit != nil {
				// An error is the run stopping: Skip below says so.
				release, _ = env.Admit(ctx)
			}
			started, parent = time.Now(), ctx
			if env.Skip != nil {
				if skipped, skipWhy = env.Skip(); skipped != "" {
					return ctx, godog.ErrSkip
				}
			}
			return w.begin(ctx, s, !env.AsWritten)
		})
		sc.After(func(ctx context.Context, s *godog.Scenario, err error) (context.Context, error) {
			defer release()
			if skipped != "" {
				o := newOutcome(s, started)
				o.Status, o.Message = skipped, skipWhy
				if env.Report != nil {
					env.Report(o)
				}
				return ctx, nil
			}
			o := w.outcome(s, started, err)
			var attempts []result.Attempt
			cur := w
			for {
				again := env.Retry != nil && env.Retry(o, len(attempts)+1)
				if again && env.Skip != nil {
					if st, _ := env.Skip(); st != "" {
						again = false
					}
				}
				cur.end(again)
				if !again {
					break
				}
				attempts = append(attempts, o.AsAttempt())
				cur, o = replayScenario(env, parent, s)
			}
			if len(attempts) > 0 {
				o.Attempts = append(attempts, o.AsAttempt())
				o.Elapsed = time.Since(started)
			}
			o.Returned = cur.parityValues(o.Tags)
			if env.Report != nil {
				env.Report(o)
			}
			return ctx, nil
		})
	}
}

// newWorld makes a World whose steps are registered in t.
func newWorld(env *Env, t *stepTable) *World {
	w := &World{env: env, table: t}
	w.registerAll(t)
	return w
}

// begin readies w for one attempt of s: its deadline, route, fakes' state and temp dir.
func (w *World) begin(ctx context.Context, s *godog.Scenario, quick bool) (context.Context, error) {
	env := w.env
	if env.ScenarioTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, env.ScenarioTimeout)
		w.cancel = cancel
	}
	w.ctx = ctx
	w.id = env.seq.Add(1)
	if err := w.fresh(s); err != nil || !quick {
		return ctx, err
	}
	q, err := planQuick(s, w.bounds.declared, w.table)
	w.quick = q
	return ctx, err
}

// fresh gives w a new LLM route, new MCP fake state, s's bounds and a new temp dir.
func (w *World) fresh(s *godog.Scenario) error {
	w.route = w.env.LLM.NewRoute()
	w.mcp = newMCPState()
	w.host = &hostFns{}
	var err error
	if w.bounds, err = newBounds(s); err != nil {
		return err
	}
	dir, err := os.MkdirTemp(w.env.TempRoot, "conformance-scenario-")
	if err != nil {
		return fmt.Errorf("harness: temp dir: %w", err)
	}
	w.dir = dir
	return nil
}

// replayScenario runs every step of s once more on a new World, as written (a retry gets
// no quick first attempt), and returns that World with its outcome.
func replayScenario(env *Env, parent context.Context, s *godog.Scenario) (*World, result.Outcome) {
	w := newWorld(env, &stepTable{next: discardSteps{}})
	began := time.Now()
	_, err := w.begin(parent, s, false)
	for _, st := range s.Steps {
		if err != nil {
			break
		}
		err = w.table.replay(st)
	}
	return w, w.outcome(s, began, err)
}

// discardSteps takes the registrations of a World that is only replayed, never run by godog.
type discardSteps struct{}

func (discardSteps) Step(any, any) {}

func newOutcome(s *godog.Scenario, started time.Time) result.Outcome {
	o := result.Outcome{Scenario: s.Name, URI: s.Uri, Status: result.StatusPass, Elapsed: time.Since(started),
		AstNodeIDs: append([]string(nil), s.AstNodeIds...)}
	o.Order, _ = strconv.Atoi(s.Id)
	for _, t := range s.Tags {
		o.Tags = append(o.Tags, strings.TrimPrefix(t.Name, "@"))
	}
	return o
}

// outcome is what one attempt of s came to, from its first failing step's error.
func (w *World) outcome(s *godog.Scenario, started time.Time, err error) result.Outcome {
	o := newOutcome(s, started)
	o.Floor = w.bounds.floor
	if err == nil && w.lease.notRun == "" {
		if why := w.unasserted(); why != "" {
			err = &Misdeclared{why}
		}
	}
	var u *Unsupported
	var inc *Inconclusive
	switch {
	case w.lease.notRun != "":
		// The breaker gave up on the adapter while this scenario waited for a process.
		o.Status, o.Message = w.lease.notRun, w.lease.notRunWhy
	case err == nil:
	case errors.As(err, &u):
		o.Status, o.Message = result.StatusUnsupported, u.Error()
	case errors.As(err, &inc):
		o.Status, o.Message, o.Final = result.StatusInconclusive, err.Error(), inc.Final
	default:
		o.Status, o.Message = result.StatusFail, err.Error()
	}
	if w.route != nil {
		for _, r := range w.route.Requests() {
			o.Bodies = append(o.Bodies, r.Body)
		}
	}
	if w.proc != nil && o.Status != result.StatusPass {
		o.Stderr = w.proc.StderrSince(w.stderrMark)
	}
	o.Message = safetext.Text(o.Message) // it may quote what the adapter wrote
	if o.Status == result.StatusFail || o.Status == result.StatusUnsupported {
		if st := stableMessage(err); st != "" {
			o.Stable = safetext.Text(st)
		}
	}
	o.Golden = w.golden
	o.Settled, o.Waited = w.settled, w.waited
	if q := w.quick; q != nil {
		o.Quick, o.Retried = !q.active && q.cut && q.void == "", q.void
	}
	var mis *Misdeclared
	if errors.As(err, &mis) {
		o.Harness = mis.Why
	}
	return o
}

// end closes the attempt: what it opened, its adapter lease (discarding the process when
// another attempt follows, so that one starts fresh) and its deadline.
func (w *World) end(discard bool) {
	w.cleanup()
	if discard && w.proc != nil {
		w.proc.Discard()
		w.lease.cutAtBound = true // a replacement asked for, not an adapter fault
	}
	w.endLease()
	if w.cancel != nil {
		w.cancel()
	}
}

// registerAll binds every step definition to w.
func (w *World) registerAll(sc stepAdder) {
	w.registerClientSteps(sc)
	w.registerBodySteps(sc)
	w.registerMCPSteps(sc)
	w.registerMCPPhaseSteps(sc)
	w.registerHeaderSteps(sc)
	w.registerStoreSteps(sc)
	w.registerOutcomeSteps(sc)
	w.registerTimingSteps(sc)
	w.registerGoldenSteps(sc)
	w.registerBaselineSteps(sc)
	w.registerBlindSpotSteps(sc)
	w.registerContractToolSteps(sc)
	w.registerContractRunSteps(sc)
	w.registerContractAdapterSteps(sc)
	w.registerContractConfigSteps(sc)
	w.registerContractMCPSteps(sc)
	w.registerContractHTTPSteps(sc)
	w.registerContractServerSteps(sc)
	w.registerContractBuiltinSteps(sc)
}

type opResponse struct {
	op   string
	resp *adapter.Response
}

// handle names an adapter object uniquely for this run.
func (w *World) handle(kind string) string {
	return fmt.Sprintf("%s%d_%d", kind, w.id, w.env.seq.Add(1))
}

// call sends one request and keeps its response; a port-level error is not a Go error
// here, so "then it fails with …" steps can judge it. Unsupported always stops the scenario.
func (w *World) call(op string, args map[string]any) (*adapter.Response, error) {
	p, err := w.adapter()
	if err != nil {
		return nil, err
	}
	w.host.begin()
	start := time.Now()
	r, err := p.CallHost(w.ctx, op, args, w.host.answer)
	elapsed := time.Since(start)
	if err != nil {
		return nil, err
	}
	if r.OK && (op == "client.run" || op == "client.ask") && r.Result != nil {
		w.host.end()
	}
	w.last, w.lastOp, w.lastElapsed = r, op, elapsed
	w.responses = append(w.responses, opResponse{op, r})
	w.warnings = append(w.warnings, r.Warnings...)
	if len(r.Crashes) > 0 {
		// A library that would end its host's process fails, whatever the call returned. The
		// first line of each crash is the evidence (stack traces are in the adapter's stderr).
		var heads []string
		for _, c := range r.Crashes {
			head, _, _ := strings.Cut(c, "\n")
			if !slices.Contains(heads, head) {
				heads = append(heads, head)
			}
		}
		slices.Sort(heads)
		return r, fmt.Errorf("%s: the library crashed outside the call's result (it would end a default host process): %s",
			op, safetext.Text(strings.Join(heads, "; ")))
	}
	if !r.OK && r.Error.Kind == "unsupported" {
		return r, &Unsupported{Op: op, Message: r.Error.Message}
	}
	return r, nil
}

// must is call for set-up steps: any port error fails the step.
func (w *World) must(op string, args map[string]any) (map[string]any, error) {
	r, err := w.call(op, args)
	if err != nil {
		return nil, err
	}
	if !r.OK {
		return nil, fmt.Errorf("%s failed: %s: %s", op, r.Error.Kind, r.Error.Message)
	}
	return r.Result, nil
}

// cleanup closes what the scenario opened, in the adapter and in the fakes.
func (w *World) cleanup() {
	if p := w.proc; p != nil && !p.IsBroken() {
		for _, tk := range w.toolkits {
			_, _ = p.Call(context.Background(), "toolkit.close", map[string]any{"toolkit": tk})
		}
	}
	w.mcp.close()
	if w.dir != "" {
		_ = os.RemoveAll(w.dir)
	}
}
