package steps

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gherkin "github.com/cucumber/gherkin/go/v42"
	"github.com/cucumber/godog"
	messages "github.com/cucumber/messages/go/v34"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	mcpfake "github.com/muthuishere/toolnexus-conformance/fakes/mcp"
	"github.com/muthuishere/toolnexus-conformance/internal/timing"
)

type noSteps struct{}

func (noSteps) Step(any, any) {}

// allSteps is a table of every real step definition, bound to a world that is never run.
func allSteps() *stepTable {
	t := &stepTable{next: noSteps{}}
	(&World{}).registerAll(t)
	return t
}

func scenariosOf(t *testing.T, name, src string) []*godog.Scenario {
	t.Helper()
	ids := (&messages.Incrementing{}).NewId
	doc, err := gherkin.ParseGherkinDocument(strings.NewReader(src), ids)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return gherkin.Pickles(*doc, name, ids)
}

func TestQuickPlanFollowsTheDeclaration(t *testing.T) {
	const stall = `    Given an MCP server "stuck" over stdio that stalls in tools/list
`
	const action = `    When the MCP config is loaded with a cancel after 1500 ms
    Then the call fails with kind "cancelled"
    And the fake "stuck" saw the client reach tools/list
`
	cases := []struct {
		name, tags, steps string
		quick             bool
		misdeclared       string
	}{
		{"declared", "@quick", stall + action, true, ""},
		{"not declared", "", stall + action, false, ""},
		{"two actions", "@quick", stall + action + "    When the MCP config is listed\n", false, "second"},
		{"a set-up step with no definition", "@quick", stall + "    And something nobody defined\n" + action, false, "cannot be replayed"},
	}
	table := allSteps()
	for _, c := range cases {
		src := "Feature: f\n  " + c.tags + "\n  Scenario: s\n" + c.steps
		sc := scenariosOf(t, c.name, src)[0]
		b, err := newBounds(sc)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		q, err := planQuick(sc, b.declared, table)
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
	table := &stepTable{next: noSteps{}}
	table.Step(`^a server "([^"]*)" with (\d+) tools$`, func(name string, n int) error {
		gotName, gotN = name, n
		return nil
	})
	table.Step(`^a failing step$`, func() error { return errors.New("boom") })
	table.Step(`^a ratio of (\d+)$`, func(f float64) error { return nil })

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
}

// A quick attempt stands only if every server that does not stall had been listed: a cancel
// that lands while "good" is still connecting would test another situation.
func TestQuickPremiseNeedsEveryOtherServerListed(t *testing.T) {
	good, err := mcpfake.StartStreamable()
	if err != nil {
		t.Fatal(err)
	}
	defer good.Close()
	dir := t.TempDir()
	w := &World{mcp: newMCPState(), bounds: bounds{stalls: map[string]time.Duration{"stuck": timing.Forever}}, quick: &quickPlan{}}
	w.mcp.http["good"] = good
	w.mcp.servers["good"] = map[string]any{"url": good.URL()}
	w.mcp.servers["stuck"] = map[string]any{"url": "http://127.0.0.1:1/mcp"} // stalls: not asked to be listed
	w.mcp.servers["off"] = map[string]any{"url": "http://127.0.0.1:1/mcp", "enabled": false}
	w.mcp.pidFiles["local"] = filepath.Join(dir, "local.pid")
	w.mcp.servers["local"] = map[string]any{"command": []any{"x"}}

	if why := w.unreached(); !strings.Contains(why, `"good" had not been listed`) {
		t.Fatalf("unlisted streamable server: %q", why)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: good.URL()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if why := w.unreached(); !strings.Contains(why, `"local" had not been listed`) {
		t.Fatalf("unlisted stdio server: %q", why)
	}
	if err := os.WriteFile(mcpfake.ListedFile(w.mcp.pidFiles["local"]), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if why := w.unreached(); why != "" {
		t.Errorf("every other server listed, yet: %q", why)
	}
}

// The premise of a quick attempt is every stall its steps registered: a stall the client did
// not reach makes the attempt void.
func TestQuickPremiseNeedsEveryRegisteredStallReached(t *testing.T) {
	stuck, err := mcpfake.StartStreamableStalling("tools/list")
	if err != nil {
		t.Fatal(err)
	}
	defer stuck.Close()
	w := &World{mcp: newMCPState(), quick: &quickPlan{}}
	w.bounds, _ = newBounds(&godog.Scenario{})
	w.mcp.http["stuck"] = stuck
	w.mcp.servers["stuck"] = map[string]any{"url": stuck.URL()}
	w.stallsIn("stuck", "tools/list", timing.Forever)
	if why := w.unreached(); !strings.Contains(why, "never received tools/list") {
		t.Fatalf("stall not reached: %q", why)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: stuck.URL()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	listCtx, stop := context.WithCancel(ctx)
	defer stop()
	go func() { _, _ = cs.ListTools(listCtx, nil) }()
	for stuck.Stalls() == 0 && ctx.Err() == nil {
		time.Sleep(5 * time.Millisecond)
	}
	if why := w.unreached(); why != "" {
		t.Errorf("the stall was reached, yet: %q", why)
	}
}
