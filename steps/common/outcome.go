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

// Fact decodes the fact key of this port's runners/<port>/facts.json into v (the owning
// area's type); a port folder without one cannot be judged on what the fact decides: a
// harness error naming the file, never a guess. It returns the file, for messages.
func Fact(a *kernel.Attempt, key string, v any) (*ports.Facts, error) {
	f := a.Env().Facts
	if f == nil {
		why := a.Env().FactsErr
		if why == nil {
			why = errors.New("no facts were loaded")
		}
		return nil, fmt.Errorf("harness: %w", why)
	}
	if err := f.Decode(key, v); err != nil {
		return nil, fmt.Errorf("harness: %w", err)
	}
	return f, nil
}

// NullResult fails an ok call whose library result was null: ok with nothing is no success.
func NullResult(op string, r map[string]any) error {
	for _, k := range resultFields[op] {
		if v, ok := r[k]; !ok || v == nil {
			return fmt.Errorf("%s reported ok, but the library returned no result (%q is null)", op, k)
		}
	}
	return nil
}

// resultFields are the fields an op's result fills from what the library returned; the
// adapter reports null there when the library returned nothing (SPEC.md §3).
var resultFields = map[string][]string{
	"client.run":     {"text", "turns", "toolCalls"},
	"client.ask":     {"text", "turns", "toolCalls"},
	"toolkit.create": {"tools", "status"},
	"mcp.load":       {"tools", "status"},
	"mcp.list":       {"tools", "status"},
}
