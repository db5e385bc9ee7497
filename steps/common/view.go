package common

import (
	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
)

// View is what every area's steps see of the attempt they run in: each area's World embeds
// it, and is itself a kernel.State (one field, made fresh per attempt), so steps are bound as
// method expressions of it.
type View struct{ A *kernel.Attempt }

// Init is kernel.State's.
func (v *View) Init(a *kernel.Attempt) { v.A = a }

// Env is the run's environment.
func (v *View) Env() *kernel.Env { return v.A.Env() }

// Last is the last call's response; nil when no call was made.
func (v *View) Last() *adapter.Response { r, _ := v.A.Last(); return r }

// LastOp is the last call's op.
func (v *View) LastOp() string { _, op := v.A.Last(); return op }

// Call sends one request (kernel.Attempt.Call).
func (v *View) Call(op string, args map[string]any) (*adapter.Response, error) {
	return v.A.Call(op, args)
}

// Must is Call for set-up steps: any port error fails the step.
func (v *View) Must(op string, args map[string]any) (map[string]any, error) {
	return v.A.Must(op, args)
}

// Handle names an adapter object uniquely for this run.
func (v *View) Handle(kind string) string { return v.A.Handle(kind) }

// TK is the attempt's toolkits.
func (v *View) TK() *Toolkits { return TK(v.A) }
