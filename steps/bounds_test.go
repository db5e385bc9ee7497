package steps

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	messages "github.com/cucumber/messages/go/v34"

	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/internal/timing"
)

// A step that asserts a bound the scenario did not declare is the scenario's fault, named as
// such: the runner waited for the declared bound, not the one the step asserts.
func TestAssertionStepsCheckTheDeclaration(t *testing.T) {
	w := &World{bounds: bounds{declared: timing.Declared{Within: 2000 * time.Millisecond}, asserted: map[string]bool{}},
		last: &adapter.Response{OK: true}, lastOp: "mcp.load", lastElapsed: 10 * time.Millisecond, lastLimit: 100 * time.Millisecond}
	var mis *Misdeclared
	if err := w.callWithin(3500); !errors.As(err, &mis) || !strings.Contains(err.Error(), "@within:2000") {
		t.Errorf("3500 ms asserted, 2000 declared: %v", err)
	}
	if err := w.callWithinLimit(2000); !errors.As(err, &mis) || !strings.Contains(err.Error(), "declares none") {
		t.Errorf("no @within-limit declared: %v", err)
	}
	w.bounds.asserted = map[string]bool{}
	if why := w.unasserted(); !strings.Contains(why, "no step asserts it") {
		t.Errorf("declared, never asserted: %q", why)
	}
	if err := w.callWithin(2000); err != nil {
		t.Errorf("as declared, inside the bound: %v", err)
	}
	if why := w.unasserted(); why != "" {
		t.Errorf("asserted: %q", why)
	}
	w.lastElapsed = 2100 * time.Millisecond
	if err := w.callWithin(2000); err == nil || errors.As(err, &mis) {
		t.Errorf("past the bound is the port's failure: %v", err)
	}
}

// handlers names the step handlers the timing declarations are about, by their code (a
// method value's code is its method's, whatever World it is bound to).
func handlers() map[uintptr]string {
	w := &World{}
	out := map[uintptr]string{}
	for name, fn := range map[string]any{"within": w.callWithin, "within-limit": w.callWithinLimit,
		"within-timeout": w.withinTimeout, "action": w.mcpAction, "stall": w.stallingServer,
		"hung stdio": w.hungStdioServer, "reach": w.sawPhase} {
		out[reflect.ValueOf(fn).Pointer()] = name
	}
	return out
}

// Every scenario's timing tags agree with its steps, read through the step definitions godog
// uses: each declared bound is the one its assertion step gives, and exactly the scenarios a
// quick attempt can judge (one MCP action after replayable set-up, a limit over the quick
// limit, a stall it checks the client reached, no bound in absolute ms) are @quick. A
// scenario tagged wrongly would fail at run time; this names it before anything runs.
func TestDeclaredTimingAgreesWithTheSteps(t *testing.T) {
	paths, err := filepath.Glob("../features/*.feature")
	if err != nil || len(paths) == 0 {
		t.Fatalf("features: %v", err)
	}
	table, names := allSteps(), handlers()
	quick := 0
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, sc := range scenariosOf(t, p, string(src)) {
			where := filepath.Base(p) + ": " + sc.Name
			b, err := newBounds(sc)
			if err != nil {
				t.Errorf("%s: %v", where, err)
				continue
			}
			d := b.declared
			asserted := map[string]time.Duration{}
			long, stall, reach, mcpAction, replayable := false, false, false, false, true
			actions := 0
			for _, st := range sc.Steps {
				fn, args, err := table.bind(st)
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
				switch names[fn.Pointer()] {
				case "within", "within-limit", "within-timeout":
					asserted[names[fn.Pointer()]] = time.Duration(n(0)) * time.Millisecond
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
				if asserted[tag] != v {
					t.Errorf("%s: declares @%s:%d, its step asserts %d ms", where, tag, v/time.Millisecond, asserted[tag]/time.Millisecond)
				}
			}
			kinds := make([]timing.StepKind, len(sc.Steps))
			for i, st := range sc.Steps {
				kinds[i] = timing.StepKind(st.Type)
			}
			can := timing.CheckQuick(kinds) == nil && mcpAction && replayable && long && stall && reach && asserted["within"] == 0
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
