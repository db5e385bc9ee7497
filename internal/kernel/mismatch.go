package kernel

import (
	"errors"
	"fmt"
	"strings"

	"github.com/google/go-cmp/cmp"
)

// Mismatch is a go-cmp diff in a failure message, with a stable stand-in for fingerprints.
// go-cmp makes its output unstable on purpose: once per process it flips a coin that decides
// where a long string's diff is cut ("100" ".0" or "10" "0."), so the same failure renders
// two ways across runs, and a known failure hashed from that text would read "changed". The
// fingerprint hashes both values instead (fmt's %#v: map keys sorted), which only the port's
// behaviour changes.
type Mismatch struct{ text, stable string }

func (m *Mismatch) Error() string { return m.text }

// DiffOf is go-cmp's diff of want and got, or nil when they are equal.
func DiffOf(want, got any, opts ...cmp.Option) *Mismatch {
	d := cmp.Diff(want, got, opts...)
	if d == "" {
		return nil
	}
	return &Mismatch{text: d, stable: fmt.Sprintf("want %#v\ngot %#v", want, got)}
}

// StableMessage is err's message with each diff in it replaced by its stable stand-in; ""
// when it holds none (the message itself is stable then).
func StableMessage(err error) string {
	var found []*Mismatch
	var walk func(error)
	walk = func(e error) {
		switch x := e.(type) {
		case nil:
		case *Mismatch:
			found = append(found, x)
		case interface{ Unwrap() []error }:
			for _, c := range x.Unwrap() {
				walk(c)
			}
		default:
			walk(errors.Unwrap(e))
		}
	}
	walk(err)
	if len(found) == 0 {
		return ""
	}
	msg := err.Error()
	for _, m := range found {
		msg = strings.Replace(msg, m.text, m.stable, 1)
	}
	return msg
}
