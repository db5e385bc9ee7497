package steps

import (
	"errors"
	"fmt"
	"strings"

	"github.com/google/go-cmp/cmp"
)

// mismatch is a go-cmp diff in a failure message, with a stable stand-in for fingerprints.
// go-cmp makes its output unstable on purpose: once per process it flips a coin that decides
// where a long string's diff is cut ("100" ".0" or "10" "0."), so the same failure renders
// two ways across runs, and a known failure hashed from that text would read "changed". The
// fingerprint hashes both values instead (fmt's %#v: map keys sorted), which only the port's
// behaviour changes.
type mismatch struct{ text, stable string }

func (m *mismatch) Error() string { return m.text }

// diffOf is go-cmp's diff of want and got, or nil when they are equal.
func diffOf(want, got any, opts ...cmp.Option) *mismatch {
	d := cmp.Diff(want, got, opts...)
	if d == "" {
		return nil
	}
	return &mismatch{text: d, stable: fmt.Sprintf("want %#v\ngot %#v", want, got)}
}

// stableMessage is err's message with each diff in it replaced by its stable stand-in; ""
// when it holds none (the message itself is stable then).
func stableMessage(err error) string {
	var found []*mismatch
	var walk func(error)
	walk = func(e error) {
		switch x := e.(type) {
		case nil:
		case *mismatch:
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
