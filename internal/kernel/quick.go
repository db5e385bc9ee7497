package kernel

import (
	"errors"
	"fmt"

	"github.com/cucumber/godog"
	messages "github.com/cucumber/messages/go/v34"

	"github.com/muthuishere/toolnexus-conformance/internal/timing"
)

// Quick first (SPEC.md §3; the policy is internal/timing). A scenario tagged @quick runs
// first with its longer limits cut to timing.QuickLimit: the steps cut what they send as they
// run (QuickMs), and the areas register where the client must get to. When the action
// returns, the premise is checked (the states' Unreached); a void attempt is closed, its
// set-up steps are replayed on fresh state with the limits as written, and the action runs
// again, so only that second attempt is judged.

// quickPlan is one scenario's quick first attempt.
type quickPlan struct {
	setup  []*godog.Step // the set-up steps before the action, replayed for a second attempt
	active bool          // limits are cut (the first attempt, until its action returned)
	cut    bool          // a limit over timing.QuickLimit was cut
	reach  bool          // a step registered a stall the client can be seen to reach
	void   string        // why the first attempt proved nothing; "" when it stood
}

// planQuick returns the quick plan of a scenario declared @quick, nil for any other. A
// scenario whose steps cannot be replayed is misdeclared (LoadFeatures checked its shape).
func planQuick(s *godog.Scenario, d timing.Declared, t *Steps) (*quickPlan, error) {
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
	q := &quickPlan{active: true}
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

// QuickMs is a written limit as this attempt uses it: cut to QuickLimit on a quick attempt.
func (a *Attempt) QuickMs(ms int) int {
	q := a.quick
	if q == nil || !q.active {
		return ms
	}
	n, cut := timing.Cut(ms)
	q.cut = q.cut || cut
	return n
}

// Reachable tells a quick attempt that the scenario set up a stall the client can be seen to
// reach (a state's Unreached judges it when the action returns).
func (a *Attempt) Reachable() {
	if a.quick != nil {
		a.quick.reach = true
	}
}

// unreached asks every state what of the premise did not hold; "" when it held.
func (a *Attempt) unreached() string {
	why := ""
	a.each(func(s State) {
		if p, ok := s.(Premise); ok && why == "" {
			why = p.Unreached()
		}
	})
	return why
}

// QuickAction runs the scenario's action; on a quick attempt that reached not every stall it
// starts the scenario again as written and runs the action once more.
func (a *Attempt) QuickAction(act func() error) error {
	err := act()
	q := a.quick
	if q == nil || !q.active {
		return err
	}
	q.active = false
	var u *Unsupported
	if errors.As(err, &u) || a.ctx.Err() != nil {
		return err
	}
	switch {
	case !q.cut:
		return &Misdeclared{fmt.Sprintf("the scenario declares @%s, but none of its limits is over %s: there is nothing to cut", timing.TagQuick, timing.QuickLimit)}
	case !q.reach:
		return &Misdeclared{fmt.Sprintf("the scenario declares @%s, but sets up no stall the client can be seen to reach: a void attempt could not be told", timing.TagQuick)}
	}
	why := a.unreached()
	if why == "" {
		return err
	}
	q.void = fmt.Sprintf("a first attempt with limits cut to %s proved nothing (%s); judged as written", timing.QuickLimit, why)
	floor := a.bounds.floor // a perfect port never needs the second attempt
	if err := a.restartAsWritten(); err != nil {
		return err
	}
	err = act()
	a.bounds.floor = floor
	return err
}

// restartAsWritten closes what the first attempt opened and replays the set-up steps on fresh
// state, now with the limits as written. The adapter, the deadline, the responses (a secret
// scan reads them all) and the waits the port cost stay.
func (a *Attempt) restartAsWritten() error {
	a.cleanup()
	responses, waited := a.calls.responses, a.bounds.waited
	if err := a.fresh(); err != nil {
		return err
	}
	a.calls.responses, a.bounds.waited = responses, waited
	for _, st := range a.quick.setup {
		if err := a.sc.steps.replay(st); err != nil {
			return fmt.Errorf("replaying %q for the second attempt: %w", st.Text, err)
		}
	}
	return nil
}
