package timing

import (
	"fmt"
	"time"
)

// Quick first. A stall scenario writes its limits (a cancel after 1500 ms, a server timeout
// of 1500 ms) long enough for the slowest port to reach the stall on a loaded machine; most
// ports reach it in a few ms. A scenario declared @quick first runs with those limits cut to
// QuickLimit. When the client reached every stall the scenario's steps set up, and listed
// every server that does not stall, that attempt stands and is judged like any other. When
// not, the attempt proves nothing (the limit fired before the stall the scenario is about):
// its fakes are closed, its set-up steps are replayed with the limits as written, and only
// that second attempt is judged. A verdict is therefore always earned under the scenario's
// premise.
const QuickLimit = 150 * time.Millisecond

// Cut is a written limit in ms as a quick first attempt sends it, and whether it was cut.
func Cut(ms int) (int, bool) {
	if time.Duration(ms)*time.Millisecond > QuickLimit {
		return int(QuickLimit / time.Millisecond), true
	}
	return ms, false
}

// LimitsNote says, for a report, which limits a scenario was judged with when they are not
// the ones its text gives ("" when they are): quick and retried are the outcome's Quick and
// Retried.
func LimitsNote(quick bool, retried string) string {
	switch {
	case retried != "":
		return "(" + retried + ")"
	case quick:
		return fmt.Sprintf("(judged on its quick first attempt: the cancel, deadline and stalled servers' timeouts the scenario gives were cut to %s, SPEC.md §3)", QuickLimit)
	}
	return ""
}
