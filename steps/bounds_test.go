package steps

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	gherkin "github.com/cucumber/gherkin/go/v42"
	"github.com/cucumber/godog"
	messages "github.com/cucumber/messages/go/v34"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/internal/timing"
	"github.com/muthuishere/toolnexus-conformance/steps/mcp"
)

// handlers names the step handlers the timing declarations are about, by their code (a
// method value's code is its method's, whatever World it is bound to).
func handlers() map[uintptr]string {
	out := map[uintptr]string{}
	for name, fn := range mcp.TimingHandlers() {
		out[reflect.ValueOf(fn).Pointer()] = name
	}
	return out
}

// Every scenario's timing tags agree with its steps, read through the step definitions godog
// uses: each declared bound is the one its assertion step gives, and exactly the scenarios a
// quick attempt can judge (one MCP action after replayable set-up, a limit over the quick
// limit, a stall it checks the client reached, no bound in absolute ms) are @quick. A
// scenario tagged wrongly would fail at run time; this names it before anything runs.
func scenariosOf(t *testing.T, name, src string) []*godog.Scenario {
	t.Helper()
	ids := (&messages.Incrementing{}).NewId
	doc, err := gherkin.ParseGherkinDocument(strings.NewReader(src), ids)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return gherkin.Pickles(*doc, name, ids)
}

func TestDeclaredTimingAgreesWithTheSteps(t *testing.T) {
	paths, err := filepath.Glob("../features/*/*.feature")
	if err != nil || len(paths) == 0 {
		t.Fatalf("features: %v", err)
	}
	table, names := kernel.Table(Library()), handlers()
	quick := 0
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, sc := range scenariosOf(t, p, string(src)) {
			where := filepath.Base(p) + ": " + sc.Name
			var tags []string
			for _, tg := range sc.Tags {
				tags = append(tags, strings.TrimPrefix(tg.Name, "@"))
			}
			d, err := timing.Parse(tags)
			if err != nil {
				t.Errorf("%s: %v", where, err)
				continue
			}
			asserted := map[string]bool{}
			long, stall, reach, mcpAction, replayable := false, false, false, false, true
			actions := 0
			for _, st := range sc.Steps {
				h, args, err := table.Lookup(st)
				if st.Type == messages.PickleStepType_ACTION {
					actions++
				}
				if err != nil {
					replayable = replayable && actions > 0
					continue
				}
				// n is the i-th argument in ms: an int, or a string capture ("" when absent).
				n := func(i int) int {
					if args[i].Kind() == reflect.Int {
						return int(args[i].Int())
					}
					v, _ := strconv.Atoi(args[i].String())
					return v
				}
				switch name := names[reflect.ValueOf(h).Pointer()]; name {
				case "within", "within-limit", "within-timeout":
					asserted[name] = true
				case "action":
					mcpAction = true
					long = long || time.Duration(n(2))*time.Millisecond > timing.QuickLimit
				case "stall":
					stall = true
					long = long || time.Duration(n(3))*time.Millisecond > timing.QuickLimit
				case "hung stdio":
					stall = true
					long = long || time.Duration(n(1))*time.Millisecond > timing.QuickLimit
				case "reach":
					reach = true
				}
			}
			for tag, v := range map[string]time.Duration{"within": d.Within, "within-limit": d.WithinLimit, "within-timeout": d.WithinTimeout} {
				if asserted[tag] != (v > 0) {
					t.Errorf("%s: declares @%s:%d, and a step asserting it: %v (both or neither)", where, tag, v/time.Millisecond, asserted[tag])
				}
			}
			kinds := make([]timing.StepKind, len(sc.Steps))
			for i, st := range sc.Steps {
				kinds[i] = timing.StepKind(st.Type)
			}
			can := timing.CheckQuick(kinds) == nil && mcpAction && replayable && long && stall && reach && !asserted["within"]
			if d.Quick != can {
				t.Errorf("%s: @quick is %v; a quick attempt can judge it: %v", where, d.Quick, can)
			}
			if d.Quick {
				quick++
			}
		}
	}
	if quick < 30 {
		t.Errorf("only %d scenarios get a quick attempt; the stall outlines alone have more than 30", quick)
	}
}
