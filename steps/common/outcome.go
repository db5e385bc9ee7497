package common

import (
	"errors"
	"fmt"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/internal/ports"
)

func CallSucceeds(a *kernel.Attempt) error {
	last, op := a.Last()
	if last == nil {
		return fmt.Errorf("harness: no call was made")
	}
	if !last.OK {
		return fmt.Errorf("%s failed: %s: %s", op, last.Error.Kind, last.Error.Message)
	}
	return NullResult(op, last.Result)
}

// okResult is the last call's result, or why there is none.
func OKResult(a *kernel.Attempt) (map[string]any, error) {
	if err := CallSucceeds(a); err != nil {
		return nil, err
	}
	last, _ := a.Last()
	return last.Result, nil
}

// facts is this port's runners/<port>/facts.json, handed by the runner; a port folder without
// one cannot be judged on what the facts decide: a harness error naming the file, never a guess.
func Facts(a *kernel.Attempt) (*ports.Facts, error) {
	if a.Env().Facts == nil {
		why := a.Env().FactsErr
		if why == nil {
			why = errors.New("no facts were loaded")
		}
		return nil, fmt.Errorf("harness: %w", why)
	}
	return a.Env().Facts, nil
}
