package kernel

import (
	"reflect"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// State is one area's state for one attempt. The kernel creates it (the zero value, then
// Init) the first time a step or slot of the attempt asks for it, so every attempt starts
// from fresh state with no reset list to keep.
type State interface {
	Init(a *Attempt)
}

// The optional hooks a state may implement; the kernel calls them on every state the attempt
// created, in creation order (Close: in reverse).
type (
	// Closer closes what the state opened (fakes, temp files) when the attempt ends.
	Closer interface{ Close() }
	// EarlyCloser closes what the state holds in the adapter (a toolkit) before any Closer
	// runs, so the adapter lets go of the fakes before they are closed.
	EarlyCloser interface{ CloseEarly() }
	// Evidencer adds what the state knows to the attempt's outcome (bodies, golden name).
	Evidencer interface{ Evidence(o *result.Outcome) }
	// Premise says what of the scenario's premise did not hold when a quick attempt's action
	// returned: a stall the client had not reached; "" when it held (quick.go).
	Premise interface{ Unreached() string }
)

// Get is the attempt's state of type T, created on first use.
func Get[T any, P interface {
	*T
	State
}](a *Attempt) P {
	return a.state(reflect.TypeFor[T]()).(P)
}

// state returns the attempt's state of type t (a struct type whose pointer is a State).
func (a *Attempt) state(t reflect.Type) State {
	a.mu.Lock()
	if s, ok := a.states[t]; ok {
		a.mu.Unlock()
		return s
	}
	s := reflect.New(t).Interface().(State)
	a.states[t] = s
	a.order = append(a.order, s)
	a.mu.Unlock()
	s.Init(a) // outside the lock: Init may ask for other states
	return s
}

// each calls f on every state the attempt created, in creation order.
func (a *Attempt) each(f func(State)) {
	a.mu.Lock()
	states := append([]State(nil), a.order...)
	a.mu.Unlock()
	for _, s := range states {
		f(s)
	}
}
