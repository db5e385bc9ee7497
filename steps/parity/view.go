package parity

import (
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

// World is the steps' view of an attempt in this area.
type World struct{ common.View }

func (w *World) parity() *State { return kernel.Get[State](w.A) }

// Area is cross-port parity (README.md beside this file).
func Area() kernel.Area {
	return kernel.Area{
		Name: "parity",
		Register: func(t *kernel.Steps) {
			registerGoldenSteps(t)
			registerBaselineSteps(t)
			registerExampleSteps(t)
		},
	}
}

// Returned is X.4's values of an attempt: what the library returned to a contract
// scenario's ops.
func Returned(a *kernel.Attempt, tags []string) any {
	return parityOf(tags, a.Responses(), a.Dir())
}
