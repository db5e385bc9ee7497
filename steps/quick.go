package steps

import (
	"errors"
	"fmt"
	"os"

	"github.com/cucumber/godog"
	messages "github.com/cucumber/messages/go/v34"

	mcpfake "github.com/muthuishere/toolnexus-conformance/fakes/mcp"
	"github.com/muthuishere/toolnexus-conformance/internal/timing"
)

// Quick first (SPEC.md §3; the policy is internal/timing). A scenario tagged @quick runs
// first with its longer limits cut to timing.QuickLimit: the stall steps and the MCP action
// cut what they send as they run (quickMs), and the stall steps register where the client
// must get to. When the action returns, the premise is checked (unreached); a void attempt
// is closed, its set-up steps are replayed with the limits as written, and the action runs
// again, so only that second attempt is judged.

// quickPlan is one scenario's quick first attempt.
type quickPlan struct {
	scenario *godog.Scenario
	setup    []*godog.Step // the set-up steps before the action, replayed for a second attempt
	active   bool          // limits are cut (the first attempt, until its action returned)
	cut      bool          // a limit over timing.QuickLimit was cut
	void     string        // why the first attempt proved nothing; "" when it stood
}

// planQuick returns the quick plan of a scenario declared @quick, nil for any other. A
// scenario whose steps cannot be replayed is misdeclared (LoadFeatures checked its shape).
func planQuick(s *godog.Scenario, d timing.Declared, t *stepTable) (*quickPlan, error) {
	if !d.Quick {
		return nil, nil
	}
	kinds := make([]timing.StepKind, len(s.Steps))
	for i, st := range s.Steps {
		kinds[i] = timing.StepKind(st.Type)
	}
	if err := timing.CheckQuick(kinds); err != nil {
		return nil, &Misdeclared{err.Error()}
	}
	q := &quickPlan{scenario: s, active: true}
	for _, st := range s.Steps {
		if st.Type == messages.PickleStepType_ACTION {
			break
		}
		if _, _, err := t.bind(st); err != nil {
			return nil, &Misdeclared{fmt.Sprintf("@%s, but a set-up step cannot be replayed for the second attempt: %v", timing.TagQuick, err)}
		}
		q.setup = append(q.setup, st)
	}
	return q, nil
}

// quickMs is a written limit as this attempt uses it: cut to QuickLimit on a quick attempt.
func (w *World) quickMs(ms int) int {
	q := w.quick
	if q == nil || !q.active {
		return ms
	}
	n, cut := timing.Cut(ms)
	q.cut = q.cut || cut
	return n
}

// unreached says what of the scenario's premise did not hold when the call returned: a stall
// the client had not reached, or a server that does not stall and was not listed yet (a
// cancel that comes while "good" is still connecting tests something else). "" when it held.
func (w *World) unreached() string {
	for _, name := range sortedNames(w.bounds.reach) {
		if err := w.sawPhase(name, w.bounds.reach[name]); err != nil {
			return err.Error()
		}
	}
	for _, name := range sortedNames(w.mcp.servers) {
		if _, stalls := w.bounds.stalls[name]; stalls || w.mcp.servers[name]["enabled"] == false {
			continue
		}
		if h, ok := w.mcp.http[name]; ok && h.Listed() == 0 {
			return fmt.Sprintf("the fake %q had not been listed", name)
		}
		if path, ok := w.mcp.pidFiles[name]; ok {
			if _, err := os.Stat(mcpfake.ListedFile(path)); err != nil {
				return fmt.Sprintf("the stdio server of %q had not been listed", name)
			}
		}
	}
	return ""
}

// quickAction runs the scenario's action; on a quick attempt that reached not every stall it
// starts the scenario again as written and runs the action once more.
func (w *World) quickAction(act func() error) error {
	err := act()
	q := w.quick
	if q == nil || !q.active {
		return err
	}
	q.active = false
	var u *Unsupported
	if errors.As(err, &u) || w.ctx.Err() != nil {
		return err
	}
	switch {
	case !q.cut:
		return &Misdeclared{fmt.Sprintf("the scenario declares @%s, but none of its limits is over %s: there is nothing to cut", timing.TagQuick, timing.QuickLimit)}
	case len(w.bounds.reach) == 0:
		return &Misdeclared{fmt.Sprintf("the scenario declares @%s, but sets up no stall the client can be seen to reach: a void attempt could not be told", timing.TagQuick)}
	}
	why := w.unreached()
	if why == "" {
		return err
	}
	q.void = fmt.Sprintf("a first attempt with limits cut to %s proved nothing (%s); judged as written", timing.QuickLimit, why)
	floor := w.bounds.floor // a perfect port never needs the second attempt
	if err := w.restartAsWritten(); err != nil {
		return err
	}
	err = act()
	w.bounds.floor = floor
	return err
}

// restartAsWritten closes what the first attempt opened and replays the set-up steps, now
// with the limits as written.
func (w *World) restartAsWritten() error {
	w.cleanup()
	if err := w.fresh(w.quick.scenario); err != nil {
		return err
	}
	w.client, w.clientReady = nil, false
	w.toolkit, w.toolkits = "", nil
	w.last, w.lastOp, w.lastElapsed, w.lastLimit = nil, "", 0, 0
	w.warnings, w.results, w.stored, w.builds, w.settled = nil, nil, nil, nil, 0
	for _, st := range w.quick.setup {
		if err := w.table.replay(st); err != nil {
			return fmt.Errorf("replaying %q for the second attempt: %w", st.Text, err)
		}
	}
	return nil
}
