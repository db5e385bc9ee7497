package kernel

import (
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"sync"

	"github.com/cucumber/godog"

	"github.com/muthuishere/toolnexus-conformance/internal/safetext"
)

// StepAdder is what godog's ScenarioContext offers for registering steps.
type StepAdder interface {
	Step(expr, stepFunc any)
}

// Steps is what an area's Register function is given: it binds each step pattern to a
// handler. A handler is a plain function, a function of the attempt (func(*Attempt, …)), or
// a method expression of an area state ((*State).method): the kernel then passes the current
// attempt, or its state of that type created on first use, so a step is always bound to the
// attempt that runs it.
type Steps struct {
	sc   *Scenario
	next StepAdder // godog's ScenarioContext, or a discard for a table only replayed
	defs []stepDef
	// lazy defers handing steps to godog until the scenario's step texts are known
	// (forScenario): godog checks and wraps every definition it is given, and a scenario
	// needs a handful of the several hundred.
	lazy     bool
	matching *sync.Map // step text -> []int: the definitions matching it, shared by one library's tables
}

type stepDef struct {
	re      *regexp.Regexp
	fn      reflect.Value // the handler as godog calls it (state already resolved); bound on first use
	handler any           // the handler as the area gave it
}

// patterns holds each step pattern compiled once per process: the table is rebuilt for every
// scenario and would otherwise compile every pattern again.
var patterns sync.Map // string -> *regexp.Regexp

var (
	errorType   = reflect.TypeFor[error]()
	stateType   = reflect.TypeFor[State]()
	attemptType = reflect.TypeFor[*Attempt]()
)

// Step registers one step. godog is handed the compiled pattern: given a string, it compiles
// it again for every scenario, which was most of the harness's own CPU in a run.
func (t *Steps) Step(expr string, handler any) {
	re, ok := patterns.Load(expr)
	if !ok {
		re, _ = patterns.LoadOrStore(expr, regexp.MustCompile(expr))
	}
	t.defs = append(t.defs, stepDef{re: re.(*regexp.Regexp), handler: handler})
	if !t.lazy {
		t.next.Step(re.(*regexp.Regexp), t.fnOf(len(t.defs)-1).Interface())
	}
}

// fnOf is definition i's handler bound to this table's scenario.
func (t *Steps) fnOf(i int) reflect.Value {
	if !t.defs[i].fn.IsValid() {
		t.defs[i].fn = t.bindState(reflect.ValueOf(t.defs[i].handler))
	}
	return t.defs[i].fn
}

// forScenario hands godog the definitions that match one of texts, in registration order
// (so a text two patterns match resolves as it would with every definition given). The
// matches of a text are cached: every table of one library lists the same definitions.
func (t *Steps) forScenario(texts []string) {
	use := make([]bool, len(t.defs))
	for _, text := range texts {
		v, ok := t.matching.Load(text)
		if !ok {
			var idx []int
			for i, d := range t.defs {
				if d.re.MatchString(text) {
					idx = append(idx, i)
				}
			}
			v, _ = t.matching.LoadOrStore(text, idx)
		}
		for _, i := range v.([]int) {
			use[i] = true
		}
	}
	for i, u := range use {
		if u {
			t.next.Step(t.defs[i].re, t.fnOf(i).Interface())
		}
	}
}

// bindState turns a method expression of an area state into a function of the step's own
// arguments that resolves the state from the current attempt when it runs. Every handler's
// error comes back with what it quotes of an adapter escaped, so godog's cucumber report
// carries no control character (SPEC.md §3: everything an adapter writes is escaped).
func (t *Steps) bindState(fn reflect.Value) reflect.Value {
	ft := fn.Type()
	recv := reflect.Type(nil)
	if ft.NumIn() > 0 {
		recv = ft.In(0)
	}
	onAttempt := recv == attemptType
	onState := recv != nil && recv.Implements(stateType) && recv.Kind() == reflect.Pointer
	if !onAttempt && !onState {
		return escapedErrors(fn)
	}
	in := make([]reflect.Type, ft.NumIn()-1)
	for i := range in {
		in[i] = ft.In(i + 1)
	}
	out := make([]reflect.Type, ft.NumOut())
	for i := range out {
		out[i] = ft.Out(i)
	}
	sc := t.sc
	return reflect.MakeFunc(reflect.FuncOf(in, out, ft.IsVariadic()), func(args []reflect.Value) []reflect.Value {
		var first reflect.Value
		if onAttempt {
			first = reflect.ValueOf(sc.cur)
		} else {
			first = reflect.ValueOf(sc.cur.state(recv.Elem()))
		}
		return escapeOut(fn.Call(append([]reflect.Value{first}, args...)))
	})
}

// escapedErrors wraps a plain handler so its error is escaped as bindState's are.
func escapedErrors(fn reflect.Value) reflect.Value {
	ft := fn.Type()
	if ft.NumOut() == 0 || ft.Out(ft.NumOut()-1) != errorType {
		return fn
	}
	return reflect.MakeFunc(ft, func(args []reflect.Value) []reflect.Value { return escapeOut(fn.Call(args)) })
}

// escapeOut replaces a returned error that quotes control characters with one that shows
// them as text, keeping what it wraps for errors.As.
func escapeOut(out []reflect.Value) []reflect.Value {
	last := out[len(out)-1]
	if last.Type() != errorType || last.IsNil() {
		return out
	}
	err := last.Interface().(error)
	if safe := safetext.Text(err.Error()); safe != err.Error() {
		out[len(out)-1] = reflect.ValueOf(error(&escaped{safe, err}))
	}
	return out
}

// escaped is an error whose text is its cause's, escaped.
type escaped struct {
	text  string
	cause error
}

func (e *escaped) Error() string { return e.text }
func (e *escaped) Unwrap() error { return e.cause }

// bind finds the handler of one step and its arguments, or says why the step cannot be
// replayed. Only what set-up steps use is supported: string and int captures, and a doc
// string or table as the last argument.
func (t *Steps) bind(st *godog.Step) (reflect.Value, []reflect.Value, error) {
	for i, d := range t.defs {
		m := d.re.FindStringSubmatch(st.Text)
		if m == nil {
			continue
		}
		fn := t.fnOf(i)
		ft := fn.Type()
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
		return fn, args, nil
	}
	return reflect.Value{}, nil, fmt.Errorf("step %q has no definition", st.Text)
}

// Lookup is the handler an area gave for one step (a method expression stays one) and the
// step's arguments as replay would pass them after the state: for tests that read the
// scenarios through their step definitions.
func (t *Steps) Lookup(st *godog.Step) (handler any, args []reflect.Value, err error) {
	_, args, err = t.bind(st)
	if err != nil {
		return nil, nil, err
	}
	for _, d := range t.defs {
		if d.re.MatchString(st.Text) {
			return d.handler, args, nil
		}
	}
	return nil, nil, err
}

// Table is every step of lib, bound to no scenario: for looking steps up, never running them.
func Table(lib Library) *Steps {
	t := &Steps{sc: &Scenario{}, next: discardSteps{}}
	lib.register(t)
	return t
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
func (t *Steps) replay(st *godog.Step) error {
	fn, args, err := t.bind(st)
	if err != nil {
		return fmt.Errorf("harness: %w", err)
	}
	if out := fn.Call(args)[0]; !out.IsNil() {
		return out.Interface().(error)
	}
	return nil
}

// discardSteps takes the registrations of a table that is only consulted, never run by godog.
type discardSteps struct{}

func (discardSteps) Step(any, any) {}

// Undefined returns those of texts that no step definition of lib matches: a feature file
// that uses one is bad input, named before anything runs, never a failure of the port.
func Undefined(lib Library, texts []string) []string {
	t := Table(lib)
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
