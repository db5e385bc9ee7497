package steps

import (
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"sync"

	"github.com/cucumber/godog"
)

// stepAdder is what the register functions need of godog's ScenarioContext.
type stepAdder interface {
	Step(expr, stepFunc any)
}

// stepTable registers each step with godog and keeps its pattern and handler, so a scenario
// can replay its own set-up steps (quick.go) without godog.
type stepTable struct {
	next stepAdder // godog's ScenarioContext
	defs []stepDef
}

type stepDef struct {
	re *regexp.Regexp
	fn reflect.Value
}

// patterns holds each step pattern compiled once per process: the table is rebuilt for every
// scenario and would otherwise compile every pattern again.
var patterns sync.Map // string -> *regexp.Regexp

// Step hands godog the compiled pattern: given a string, godog compiles it again for every
// scenario, which was most of the harness's own CPU in a run.
func (t *stepTable) Step(expr, stepFunc any) {
	s, ok := expr.(string)
	if !ok {
		t.next.Step(expr, stepFunc) // only string patterns are replayable; none of ours is anything else
		return
	}
	re, ok := patterns.Load(s)
	if !ok {
		re, _ = patterns.LoadOrStore(s, regexp.MustCompile(s))
	}
	t.next.Step(re.(*regexp.Regexp), stepFunc)
	t.defs = append(t.defs, stepDef{re: re.(*regexp.Regexp), fn: reflect.ValueOf(stepFunc)})
}

var errorType = reflect.TypeOf((*error)(nil)).Elem()

// bind finds the handler of one step and its arguments, or says why the step cannot be
// replayed. Only what set-up steps use is supported: string and int captures, and a doc
// string or table as the last argument.
func (t *stepTable) bind(st *godog.Step) (reflect.Value, []reflect.Value, error) {
	for _, d := range t.defs {
		m := d.re.FindStringSubmatch(st.Text)
		if m == nil {
			continue
		}
		ft := d.fn.Type()
		if ft.NumOut() != 1 || ft.Out(0) != errorType {
			return reflect.Value{}, nil, fmt.Errorf("step %q: handler does not return just an error", st.Text)
		}
		caps := m[1:]
		var args []reflect.Value
		for i := 0; i < ft.NumIn(); i++ {
			in := ft.In(i)
			if i >= len(caps) {
				a, ok := stepArgument(st, in)
				if !ok || i != ft.NumIn()-1 {
					return reflect.Value{}, nil, fmt.Errorf("step %q: argument %d (%s) cannot be replayed", st.Text, i+1, in)
				}
				args = append(args, a)
				continue
			}
			switch in.Kind() {
			case reflect.String:
				args = append(args, reflect.ValueOf(caps[i]).Convert(in))
			case reflect.Int:
				n, err := strconv.Atoi(caps[i])
				if err != nil {
					return reflect.Value{}, nil, fmt.Errorf("step %q: argument %d: %w", st.Text, i+1, err)
				}
				args = append(args, reflect.ValueOf(n).Convert(in))
			default:
				return reflect.Value{}, nil, fmt.Errorf("step %q: argument %d (%s) cannot be replayed", st.Text, i+1, in)
			}
		}
		return d.fn, args, nil
	}
	return reflect.Value{}, nil, fmt.Errorf("step %q has no definition", st.Text)
}

// stepArgument is the step's doc string or table, when the handler takes that type.
func stepArgument(st *godog.Step, in reflect.Type) (reflect.Value, bool) {
	if st.Argument == nil {
		return reflect.Value{}, false
	}
	if d := st.Argument.DocString; d != nil && reflect.TypeOf(d) == in {
		return reflect.ValueOf(d), true
	}
	if tb := st.Argument.DataTable; tb != nil && reflect.TypeOf(tb) == in {
		return reflect.ValueOf(tb), true
	}
	return reflect.Value{}, false
}

// replay runs one step's handler again, as godog would have.
func (t *stepTable) replay(st *godog.Step) error {
	fn, args, err := t.bind(st)
	if err != nil {
		return fmt.Errorf("harness: %w", err)
	}
	if out := fn.Call(args)[0]; !out.IsNil() {
		return out.Interface().(error)
	}
	return nil
}

// Undefined returns those of texts that no step definition matches: a feature file that uses
// one is bad input, named before anything runs, never a failure of the port.
func Undefined(texts []string) []string {
	t := &stepTable{next: discardSteps{}}
	(&World{}).registerAll(t)
	var out []string
	for _, text := range texts {
		found := false
		for _, d := range t.defs {
			if d.re.MatchString(text) {
				found = true
				break
			}
		}
		if !found {
			out = append(out, text)
		}
	}
	return out
}
