package kernel

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	gherkin "github.com/cucumber/gherkin/go/v42"
	"github.com/cucumber/godog"
	messages "github.com/cucumber/messages/go/v34"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
	"github.com/muthuishere/toolnexus-conformance/internal/timing"
)

func scenarioOf(t *testing.T, src string) *godog.Scenario {
	t.Helper()
	ids := (&messages.Incrementing{}).NewId
	doc, err := gherkin.ParseGherkinDocument(strings.NewReader(src), ids)
	if err != nil {
		t.Fatal(err)
	}
	return gherkin.Pickles(*doc, "t.feature", ids)[0]
}

// counter is a test area's state: it counts the steps that reached it and logs its close.
type counter struct {
	a      *Attempt
	n      int
	closed *[]string
	name   string
}

var closes []string // the test area's close log; tests that read it do not run in parallel

func (c *counter) Init(a *Attempt) { c.a, c.closed, c.name = a, &closes, "counter" }
func (c *counter) Close()          { *c.closed = append(*c.closed, c.name) }
func (c *counter) bump() error     { c.n++; return nil }

type other struct{ closed *[]string }

func (o *other) Init(*Attempt) { o.closed = &closes }
func (o *other) Close()        { *o.closed = append(*o.closed, "other") }

var testLib = Library{{Name: "test", Register: func(t *Steps) {
	t.Step(`^a bump$`, (*counter).bump)
	t.Step(`^another state$`, func() error { return nil })
}}}

// A step bound to a state's method gets the current attempt's state, made on first use; a
// new attempt gets a new one, and each attempt's states close last-made first.
func TestStatesAreFreshPerAttemptAndCloseInReverse(t *testing.T) {
	s := scenarioOf(t, "Feature: f\n  Scenario: s\n    Given a bump\n")
	a, end, err := Detached(context.Background(), &Env{}, testLib, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.sc.steps.replay(s.Steps[0]); err != nil {
		t.Fatal(err)
	}
	if err := a.sc.steps.replay(s.Steps[0]); err != nil {
		t.Fatal(err)
	}
	first := Get[counter](a)
	if first.n != 2 || first.a != a {
		t.Fatalf("two bumps on one attempt: n = %d", first.n)
	}
	Get[other](a)
	closes = nil
	end()
	if strings.Join(closes, ",") != "other,counter" {
		t.Errorf("closed %v; want the last made first", closes)
	}
	b, end2, err := Detached(context.Background(), &Env{}, testLib, s)
	if err != nil {
		t.Fatal(err)
	}
	defer end2()
	if got := Get[counter](b); got == first || got.n != 0 {
		t.Errorf("a new attempt must start from fresh state: %+v", got)
	}
}

func TestQuickPlanFollowsTheDeclaration(t *testing.T) {
	lib := Library{{Name: "q", Register: func(t *Steps) {
		t.Step(`^a stall$`, func() error { return nil })
		t.Step(`^the action$`, func() error { return nil })
		t.Step(`^it is judged$`, func() error { return nil })
	}}}
	table := Table(lib)
	cases := []struct {
		name, tags, steps string
		quick             bool
		misdeclared       string
	}{
		{"declared", "@quick", "Given a stall\n    When the action\n    Then it is judged\n", true, ""},
		{"not declared", "", "Given a stall\n    When the action\n    Then it is judged\n", false, ""},
		{"two actions", "@quick", "Given a stall\n    When the action\n    Then it is judged\n    When the action\n", false, "second"},
		{"a set-up step with no definition", "@quick", "Given a stall\n    And something nobody defined\n    When the action\n", false, "cannot be replayed"},
	}
	for _, c := range cases {
		s := scenarioOf(t, "Feature: f\n  "+c.tags+"\n  Scenario: s\n    "+c.steps)
		b, err := newBounds(s)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		q, err := planQuick(s, b.declared, table)
		var mis *Misdeclared
		switch {
		case c.misdeclared != "":
			if !errors.As(err, &mis) || !strings.Contains(err.Error(), c.misdeclared) {
				t.Errorf("%s: got %v, want a harness error saying %q", c.name, err, c.misdeclared)
			}
		case err != nil || (q != nil) != c.quick:
			t.Errorf("%s: quick plan %v (%v), want %v", c.name, q != nil, err, c.quick)
		case q != nil && (len(q.setup) != 1 || !q.active):
			t.Errorf("%s: plan %+v: want the one set-up step, active", c.name, q)
		}
	}
}

func TestReplayCallsTheHandlerWithTypedArguments(t *testing.T) {
	var gotName string
	var gotN int
	table := Table(Library{{Name: "r", Register: func(t *Steps) {
		t.Step(`^a server "([^"]*)" with (\d+) tools$`, func(name string, n int) error {
			gotName, gotN = name, n
			return nil
		})
		t.Step(`^a failing step$`, func() error { return errors.New("boom") })
		t.Step(`^a ratio of (\d+)$`, func(f float64) error { return nil })
	}}})
	if err := table.replay(&godog.Step{Text: `a server "alpha" with 3 tools`}); err != nil || gotName != "alpha" || gotN != 3 {
		t.Fatalf("replay: err %v, got %q %d", err, gotName, gotN)
	}
	if err := table.replay(&godog.Step{Text: "a failing step"}); err == nil || err.Error() != "boom" {
		t.Errorf("a handler's error must come back: %v", err)
	}
	if err := table.replay(&godog.Step{Text: "a ratio of 2"}); err == nil || !strings.Contains(err.Error(), "cannot be replayed") {
		t.Errorf("an argument type replay does not know must be refused: %v", err)
	}
	if err := table.replay(&godog.Step{Text: "no such step"}); err == nil || !strings.Contains(err.Error(), "no definition") {
		t.Errorf("an undefined step must be refused: %v", err)
	}
	if got := Undefined(testLib, []string{"a bump", "a bumpp"}); len(got) != 1 || got[0] != "a bumpp" {
		t.Errorf("Undefined: %v", got)
	}
}

// A step asserts the bound its scenario declares (once, in a tag); asserting one the scenario
// does not declare, or declaring one no step asserts, is the scenario's fault.
func TestAssertsTheDeclaredBound(t *testing.T) {
	a := &Attempt{bounds: bounds{declared: timing.Declared{Within: 2 * time.Second}, asserted: map[string]bool{}}}
	if why := a.unasserted(); !strings.Contains(why, "no step asserts it") {
		t.Errorf("declared, never asserted: %q", why)
	}
	var mis *Misdeclared
	if _, err := a.Asserts(timing.TagWithinLimit); !errors.As(err, &mis) || !strings.Contains(err.Error(), "declares none") {
		t.Errorf("no @within-limit declared: %v", err)
	}
	if d, err := a.Asserts(timing.TagWithin); err != nil || d != 2*time.Second {
		t.Errorf("declared @within:2000: %v %v", d, err)
	}
	if why := a.unasserted(); why != "" {
		t.Errorf("asserted: %q", why)
	}
}

// What a step's error quotes of an adapter reaches godog (and its cucumber report) escaped,
// C1 controls included, and still unwraps to what the step returned.
func TestStepErrorsAreEscapedForGodog(t *testing.T) {
	raw := &Unsupported{Op: "x", Message: "a \u009b31m CSI and \x1b[0m"}
	var got reflect.Value
	adder := recordSteps(func(fn any) { got = reflect.ValueOf(fn) })
	tbl := &Steps{sc: &Scenario{}, next: adder}
	tbl.Step(`^a step$`, func() error { return raw })
	err := got.Call(nil)[0].Interface().(error)
	if strings.ContainsAny(err.Error(), "\u009b\x1b") {
		t.Errorf("godog would get %q", err.Error())
	}
	var u *Unsupported
	if !errors.As(err, &u) || u != raw {
		t.Error("the escaped error no longer unwraps to the step's")
	}
}

type recordSteps func(fn any)

func (r recordSteps) Step(_, fn any) { r(fn) }

// A step error the harness owns ("harness: …", a golden copy missing) is a harness error of the
// scenario, never the port's verdict; a port's failure is not.
func TestHarnessFaultIsNoVerdict(t *testing.T) {
	s := scenarioOf(t, "Feature: f\n  Scenario: s\n    Given a bump\n")
	a, end, err := Detached(context.Background(), &Env{}, testLib, s)
	if err != nil {
		t.Fatal(err)
	}
	defer end()
	o := a.outcome(time.Now(), errors.New("harness: no golden copy fixtures/parity/golden/x.json"))
	if o.Harness != "no golden copy fixtures/parity/golden/x.json" {
		t.Errorf("harness fault: Harness = %q", o.Harness)
	}
	if o := a.outcome(time.Now(), errors.New("LLM request 1 lacks \"temperature\"")); o.Harness != "" {
		t.Errorf("a port's failure became a harness error: %q", o.Harness)
	}
}

// A scenario blocked by a missing feature is a failure naming the scenario that judges it,
// final at once; an inconclusive one is not a failure.
func TestBlockedIsAFinalFailure(t *testing.T) {
	s := scenarioOf(t, "Feature: f\n  Scenario: s\n    Given a bump\n")
	a, end, err := Detached(context.Background(), &Env{}, testLib, s)
	if err != nil {
		t.Fatal(err)
	}
	defer end()
	o := a.outcome(time.Now(), &Blocked{By: "g3-sse-only-fallback", Why: "no GET on the SSE endpoint"})
	if o.Status != result.StatusFail || !o.Final || o.Message != "blocked by g3-sse-only-fallback: no GET on the SSE endpoint" {
		t.Errorf("blocked: %+v", o)
	}
}
