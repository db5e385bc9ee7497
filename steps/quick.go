package steps

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"time"

	"github.com/cucumber/godog"
	messages "github.com/cucumber/messages/go/v34"

	mcpfake "github.com/muthuishere/toolnexus-conformance/fakes/mcp"
)

// Quick first (SPEC.md §4 "Quick first"). A stall scenario writes its limits (a cancel after
// 1500 ms, a server timeout of 1500 ms) long enough for the slowest port to reach the stall on
// a loaded machine; most ports reach it in a few ms. Such a scenario first runs with those
// limits cut to QuickLimit. When every fake the scenario checks with "saw the client reach
// <phase>" was reached, that attempt stands and is judged like any other. When one was not,
// the attempt proves nothing (the limit fired before the stall the scenario is about): its
// fakes are closed, its set-up steps are replayed with the limits as written, and only that
// second attempt is judged. The premise also asks that every server that does not stall had
// been listed. A verdict is therefore always earned under the scenario's premise.
const QuickLimit = 150 * time.Millisecond

var (
	mcpActionStep     = `^the MCP config is (loaded|loaded without a context|listed|built into a toolkit)(?: with a (cancel after|deadline of) (\d+) ms)?$`
	stallStep         = `^an MCP server "([^"]*)" over (stdio|streamable HTTP|SSE only) that stalls in (spawn|initialize|tools/list)(?: with a timeout of (\d+) ms)?$`
	hungStdioStep     = `^a hung stdio MCP server "([^"]*)"(?: with a timeout of (\d+) ms)?$`
	sawPhaseStep      = `^the fake "([^"]*)" saw the client reach (spawn|initialize|tools/list)$`
	withinLimitStep   = `^the call returns within (\d+) ms of the caller's limit$`
	withinTimeoutStep = `^the call returns within (\d+) ms of the server's timeout$`

	mcpActionRe = regexp.MustCompile(mcpActionStep)
	sawPhaseRe  = regexp.MustCompile(sawPhaseStep)
	cutTimeouts = []*regexp.Regexp{regexp.MustCompile(stallStep), regexp.MustCompile(hungStdioStep)}
)

// quickPlan is one scenario's quick first attempt.
type quickPlan struct {
	scenario *godog.Scenario
	setup    []*godog.Step // the set-up steps before the action, replayed for a second attempt
	reach    [][2]string   // server, phase: what the scenario checks the client reached
	active   bool          // limits are cut (the first attempt, until its action returned)
	void     string        // why the first attempt proved nothing; "" when it stood
}

// planQuick returns the scenario's quick plan, or nil when it runs as written: nothing to
// cut, no reach check to tell a void attempt, a bound written in absolute ms, a set-up step
// that cannot be replayed, or more than one action.
func planQuick(s *godog.Scenario, t *stepTable) *quickPlan {
	q := &quickPlan{scenario: s, active: true}
	action, cut := -1, false
	for i, st := range s.Steps {
		switch {
		case withinStep.MatchString(st.Text):
			return nil // an absolute bound would not move with the limits
		case sawPhaseRe.MatchString(st.Text):
			m := sawPhaseRe.FindStringSubmatch(st.Text)
			q.reach = append(q.reach, [2]string{m[1], m[2]})
		}
		if st.Type == messages.PickleStepType_ACTION {
			if action >= 0 {
				return nil
			}
			action = i
			m := mcpActionRe.FindStringSubmatch(st.Text)
			if m == nil {
				return nil
			}
			cut = cut || overQuick(m[3])
			continue
		}
		if action < 0 {
			if _, _, err := t.bind(st); err != nil || st.Type != messages.PickleStepType_CONTEXT {
				return nil
			}
			q.setup = append(q.setup, st)
			for _, re := range cutTimeouts {
				if m := re.FindStringSubmatch(st.Text); m != nil {
					cut = cut || overQuick(m[len(m)-1])
				}
			}
		}
	}
	if action < 0 || !cut || len(q.reach) == 0 {
		return nil
	}
	return q
}

func overQuick(ms string) bool {
	n, err := strconv.Atoi(ms)
	return err == nil && time.Duration(n)*time.Millisecond > QuickLimit
}

// quickMs is a written limit as this attempt uses it: cut to QuickLimit on a quick attempt.
func (w *World) quickMs(ms int) int {
	if q := w.quick; q != nil && q.active && time.Duration(ms)*time.Millisecond > QuickLimit {
		return int(QuickLimit / time.Millisecond)
	}
	return ms
}

// unreached says what of the scenario's premise did not hold when the call returned: a stall
// the client had not reached, or a server that does not stall and was not listed yet (a
// cancel that comes while "good" is still connecting tests something else). "" when it held.
func (w *World) unreached() string {
	for _, r := range w.quick.reach {
		if err := w.sawPhase(r[0], r[1]); err != nil {
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
	why := w.unreached()
	if why == "" {
		return err
	}
	q.void = fmt.Sprintf("a first attempt with limits cut to %s proved nothing (%s); judged as written", QuickLimit, why)
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
