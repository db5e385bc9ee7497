package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
)

// errorBody relays what the library returned (SPEC.md §3): its type, message and what it
// wraps. Kind is set only for the adapter's own answers; the runner judges the rest.
type errorBody struct {
	Kind    string  `json:"kind,omitempty"`
	Message string  `json:"message"`
	Type    string  `json:"type,omitempty"`
	Chain   []entry `json:"chain,omitempty"`
}

type entry struct {
	Type    string   `json:"type"`
	Is      []string `json:"is,omitempty"`
	Message string   `json:"message"`
}

// ownError is the adapter's own answer: unsupported, or a fault of its own.
type ownError struct{ kind, msg string }

func (e *ownError) Error() string { return e.msg }

func adapterErr(kind, msg string) error { return &ownError{kind, msg} }

// known are what errors.Is / errors.As find in an error: the facts Go's kinds rest on.
var known = map[string]func(error) bool{
	"context.Canceled":         func(e error) bool { return errors.Is(e, context.Canceled) },
	"context.DeadlineExceeded": func(e error) bool { return errors.Is(e, context.DeadlineExceeded) },
	"*json.SyntaxError":        func(e error) bool { return errors.As(e, new(*json.SyntaxError)) },
	"*json.UnmarshalTypeError": func(e error) bool { return errors.As(e, new(*json.UnmarshalTypeError)) },
	"*fs.PathError":            func(e error) bool { return errors.As(e, new(*fs.PathError)) },
}

// relay lists the error and everything it wraps, depth first (Unwrap and Unwrap []error).
func relay(err error) errorBody {
	var own *ownError
	if errors.As(err, &own) {
		return errorBody{Kind: own.kind, Message: own.msg}
	}
	b := errorBody{Message: err.Error(), Type: fmt.Sprintf("%T", err)}
	for todo := []error{err}; len(todo) > 0 && len(b.Chain) < 32; {
		e := todo[0]
		if todo = todo[1:]; e == nil {
			continue
		}
		en := entry{Type: fmt.Sprintf("%T", e), Message: e.Error()}
		for name, is := range known {
			if name != en.Type && is(e) {
				en.Is = append(en.Is, name)
			}
		}
		sort.Strings(en.Is)
		b.Chain = append(b.Chain, en)
		switch u := e.(type) {
		case interface{ Unwrap() []error }:
			todo = append(slices.Clone(u.Unwrap()), todo...)
		case interface{ Unwrap() error }:
			todo = append([]error{u.Unwrap()}, todo...)
		}
	}
	return b
}
