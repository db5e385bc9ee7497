package timing

import "fmt"

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
