package timing

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The timing tags a scenario (or an example block of an outline) declares. Bounds are in ms.
const (
	// TagWithin: the MCP call is bounded by N ms from its start; its "the call returns
	// within N ms" step asserts it.
	TagWithin = "within:"
	// TagWithinLimit: bounded by the caller's cancel or deadline as sent + N ms; asserted by
	// "the call returns within N ms of the caller's limit".
	TagWithinLimit = "within-limit:"
	// TagWithinTimeout: bounded by the stalled servers' own timeout + N ms; asserted by "the
	// call returns within N ms of the server's timeout".
	TagWithinTimeout = "within-timeout:"
	// TagQuick: the scenario first runs with its limits cut to QuickLimit (quick.go).
	TagQuick = "quick"
)

// Declared is a scenario's declared timing.
type Declared struct {
	Within, WithinLimit, WithinTimeout time.Duration
	Quick                              bool
}

// Parse reads the timing tags among a scenario's tags (without "@"; other tags are not its
// business). At most one bound may be declared, each tag once, with a whole number of ms
// above 0; @quick does not go with @within, since an absolute bound would not move with the
// cut limits. A tag that looks like a timing tag but is none is an error too, so a typo does
// not silently leave a scenario judged at the hang guard.
func Parse(tags []string) (Declared, error) {
	var d Declared
	bounds := 0
	for _, t := range tags {
		var into *time.Duration
		var name, value string
		switch {
		case t == TagQuick:
			if d.Quick {
				return d, fmt.Errorf("@%s is given twice", TagQuick)
			}
			d.Quick = true
			continue
		case strings.HasPrefix(t, TagWithin):
			into, name, value = &d.Within, TagWithin, t[len(TagWithin):]
		case strings.HasPrefix(t, TagWithinLimit):
			into, name, value = &d.WithinLimit, TagWithinLimit, t[len(TagWithinLimit):]
		case strings.HasPrefix(t, TagWithinTimeout):
			into, name, value = &d.WithinTimeout, TagWithinTimeout, t[len(TagWithinTimeout):]
		case strings.HasPrefix(t, "within") || strings.HasPrefix(t, TagQuick):
			return d, fmt.Errorf("@%s is no timing tag (@%sN, @%sN, @%sN or @%s)", t, TagWithin, TagWithinLimit, TagWithinTimeout, TagQuick)
		default:
			continue
		}
		ms, err := strconv.Atoi(value)
		if err != nil || ms <= 0 || strconv.Itoa(ms) != value {
			return d, fmt.Errorf("@%s: want a whole number of ms above 0", t)
		}
		if *into != 0 {
			return d, fmt.Errorf("@%s is given twice", strings.TrimSuffix(name, ":"))
		}
		*into = time.Duration(ms) * time.Millisecond
		bounds++
	}
	switch {
	case bounds > 1:
		return d, fmt.Errorf("declares %d bounds; a scenario pins at most one of @%s, @%s, @%s", bounds,
			strings.TrimSuffix(TagWithin, ":"), strings.TrimSuffix(TagWithinLimit, ":"), strings.TrimSuffix(TagWithinTimeout, ":"))
	case d.Quick && d.Within > 0:
		return d, fmt.Errorf("@%s with @%s: a bound in absolute ms would not move with the cut limits", TagQuick, strings.TrimSuffix(TagWithin, ":"))
	}
	return d, nil
}

// StepKind is a step's kind as Gherkin gives it (Given, When, Then; "And" takes the kind
// before it); the values are the cucumber messages' pickle step types.
type StepKind string

// Step kinds.
const (
	Context StepKind = "Context"
	Action  StepKind = "Action"
	Outcome StepKind = "Outcome"
)

// CheckQuick says why a scenario with these steps cannot get a quick first attempt, nil when
// it can: it needs one action (the call whose limits are cut), and only set-up steps before
// it (they are replayed for the second attempt).
func CheckQuick(kinds []StepKind) error {
	action := -1
	for i, k := range kinds {
		switch {
		case k == Action && action >= 0:
			return fmt.Errorf("@%s needs one When step; step %d is a second", TagQuick, i+1)
		case k == Action:
			action = i
		case action < 0 && k != Context:
			return fmt.Errorf("@%s needs only Given steps before its When; step %d is not one", TagQuick, i+1)
		}
	}
	if action < 0 {
		return fmt.Errorf("@%s needs a When step whose limits it cuts", TagQuick)
	}
	return nil
}
