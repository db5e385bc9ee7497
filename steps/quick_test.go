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

func TestQuickPlanIsOnlyForScenariosItCanJudge(t *testing.T) {
	const stall = `    Given an MCP server "stuck" over stdio that stalls in tools/list
`
	const reach = `    Then the fake "stuck" saw the client reach tools/list
`
	cases := []struct {
		name, steps string
		quick       bool
	}{
		{"cancel over the quick limit, reach checked", stall + `    When the MCP config is loaded with a cancel after 1500 ms
    Then the call fails with kind "cancelled"
` + strings.Replace(reach, "Then", "And", 1), true},
		{"server timeout over the quick limit", `    Given an MCP server "stuck" over stdio that stalls in tools/list with a timeout of 1500 ms
    And an MCP server "good" over streamable HTTP
    When the MCP config is listed
` + reach, true},
		{"no reach check: a void attempt could not be told", stall + `    When the MCP config is loaded with a cancel after 1500 ms
    Then the call fails with kind "cancelled"
`, false},
		{"limit already at the quick limit", stall + `    When the MCP config is loaded with a cancel after 100 ms
` + reach, false},
		{"absolute bound would not move", stall + `    When the MCP config is loaded with a cancel after 1500 ms
    Then the call returns within 3500 ms
` + reach, false},
		{"two actions", stall + `    When the MCP config is loaded with a cancel after 1500 ms
    And the MCP config is listed
` + reach, false},
		{"a set-up step with no definition", stall + `    And something nobody defined
    When the MCP config is loaded with a cancel after 1500 ms
` + reach, false},
	}
	table := allSteps()
	for _, c := range cases {
		src := "Feature: f\n  Scenario: s\n" + c.steps
		sc := scenariosOf(t, c.name, src)[0]
		q := planQuick(sc, table)
		if (q != nil) != c.quick {
			t.Errorf("%s: quick plan %v, want %v", c.name, q != nil, c.quick)
			continue
		}
		if q != nil && (len(q.reach) != 1 || q.reach[0] != [2]string{"stuck", "tools/list"} || len(q.setup) == 0) {
			t.Errorf("%s: plan %+v: want the reach of \"stuck\" and the set-up steps", c.name, q)
		}
	}
}

// Every stall scenario of the suite whose limit can be cut gets its quick attempt: a new step
// that cannot be replayed must not turn it off unnoticed. A bound written in absolute ms keeps
// a scenario as written (G3.7's 300 ms cancel: its bound is pinned from the call's start).
func TestEveryStallScenarioWithALongLimitIsQuick(t *testing.T) {
	paths, err := filepath.Glob("../features/*.feature")
	if err != nil || len(paths) == 0 {
		t.Fatalf("features: %v", err)
	}
	table := allSteps()
	quick := 0
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, sc := range scenariosOf(t, p, string(src)) {
			long, reach, absolute := false, false, false
			for _, st := range sc.Steps {
				reach = reach || sawPhaseRe.MatchString(st.Text)
				absolute = absolute || withinStep.MatchString(st.Text)
				if m := mcpActionRe.FindStringSubmatch(st.Text); m != nil && overQuick(m[3]) {
					long = true
				}
				for _, re := range cutTimeouts {
					if m := re.FindStringSubmatch(st.Text); m != nil && overQuick(m[len(m)-1]) {
						long = true
					}
				}
			}
			if q := planQuick(sc, table); q != nil {
				quick++
			} else if long && reach && !absolute {
				t.Errorf("%s: %q has a limit over %s and a reach check but runs only as written", p, sc.Name, QuickLimit)
			}
		}
	}
	if quick < 30 {
		t.Errorf("only %d scenarios get a quick attempt; the stall outlines alone have more than 30", quick)
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
	w := &World{mcp: newMCPState(), bounds: bounds{stalls: map[string]time.Duration{"stuck": forever}}, quick: &quickPlan{}}
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
