package result

import (
	"fmt"
	"strings"
)

// Expectations is one implementation's expectations/<implementation>.txt: the scenarios it
// is known to fail (or not to support), each with the evidence of that failure and a reason.
// The format is in SPEC.md §2 (internal/suite reads, checks and writes it):
//
//	version: <the implementation's hello version the file was written against>
//
//	id: <the scenario's stable @id: tag>
//	scenario: <feature file>: <scenario name>        (for people; not matched)
//	row: <example row cells joined by " | ">        (outline rows only)
//	status: fail | unsupported
//	fingerprint: <Fingerprint of the failure message>[, <another of the same defect>…]
//	evidence: <the failure message on one line>
//	reason: <why, as seen on the wire>
//	flaky: <why the real port flips between passing and this failure>   (optional)
type Expectations struct {
	Path    string
	Version string
	Entries []*Entry
}

// Entry is one expected non-pass scenario.
type Entry struct {
	Key         Key
	Status      Status
	Fingerprint string
	Evidence    string
	Reason      string
	// Flaky, when set, says why the port sometimes passes this scenario: a pass is then not
	// an unexpected pass (a failure must still match a listed fingerprint).
	Flaky string
	Line  int    // of "id:"
	File  string // the file, relative to the root ("expectations/python@0.21.0.txt")
}

// Find is the entry for one scenario, or nil.
func (e *Expectations) Find(k Key) *Entry {
	if e == nil {
		return nil
	}
	for _, x := range e.Entries {
		if x.Key.Stable() == k.Stable() {
			return x
		}
	}
	return nil
}

// Matches reports whether fp is one of the entry's fingerprints (several may be listed, comma
// separated, when one defect shows under more than one message, e.g. a call that returns
// just past its bound or is cut at bound + margin).
func (e *Entry) Matches(fp string) bool {
	for _, f := range strings.Split(e.Fingerprint, ",") {
		if strings.TrimSpace(f) == fp {
			return true
		}
	}
	return false
}

// Where is the entry's file:line, for notes.
func (e *Entry) Where() string { return fmt.Sprintf("%s:%d", e.File, e.Line) }
