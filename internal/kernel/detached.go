package kernel

import (
	"context"

	"github.com/cucumber/godog"
)

// Detached is an attempt of s outside any run, on env and lib, with no quick plan: for tests
// of an area's state and of the kernel itself. End it with its returned function.
func Detached(ctx context.Context, env *Env, lib Library, s *godog.Scenario) (*Attempt, func(), error) {
	sc := &Scenario{env: env, lib: lib, scenario: s}
	sc.steps = &Steps{sc: sc, next: discardSteps{}}
	lib.register(sc.steps)
	a, err := newAttempt(sc, ctx, false)
	sc.cur = a
	return a, func() { a.end(false) }, err
}
