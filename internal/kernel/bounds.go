package kernel

import (
	"fmt"
	"strings"
	"time"

	"github.com/cucumber/godog"

	"github.com/muthuishere/toolnexus-conformance/internal/timing"
)

// Judging at the bound (SPEC.md §3; the policy is internal/timing). The scenario's tags
// declare the bound once; the steps that assert one take it from there.

// bounds is one attempt's pinned timing: what it declares, and the waits it cannot avoid.
type bounds struct {
	declared timing.Declared
	// asserted records which declared bound a step asserted (its tag), so a declaration no
	// step asserts is found.
	asserted map[string]bool
	floor    time.Duration // sum of the unavoidable waits of the calls made so far
	waited   time.Duration // waits the port's own failures cost (a cut at a bound, a grace run out)
	settled  time.Duration // longest wait for a port's children and connections to end
}

func newBounds(s *godog.Scenario) (bounds, error) {
	var tags []string
	for _, t := range s.Tags {
		tags = append(tags, strings.TrimPrefix(t.Name, "@"))
	}
	d, err := timing.Parse(tags)
	if err != nil {
		return bounds{}, &Misdeclared{err.Error()}
	}
	return bounds{declared: d, asserted: map[string]bool{}}, nil
}

// Declared is what the scenario's timing tags declare.
func (a *Attempt) Declared() timing.Declared { return a.bounds.declared }

// Asserts records that a step asserted the bound declared by tag and returns it; a bound the
// scenario does not declare is the scenario's fault (Misdeclared), never the port's.
func (a *Attempt) Asserts(tag string) (time.Duration, error) {
	d := a.bounds.declared
	v := map[string]time.Duration{timing.TagWithin: d.Within, timing.TagWithinLimit: d.WithinLimit,
		timing.TagWithinTimeout: d.WithinTimeout}[tag]
	if v <= 0 {
		return 0, &Misdeclared{fmt.Sprintf("the step asserts the bound of @%s, but the scenario declares none (tag it @%sN)", tag, tag)}
	}
	a.bounds.asserted[tag] = true
	return v, nil
}

// Waited adds d to what the port's own failures cost the attempt.
func (a *Attempt) Waited(d time.Duration) { a.bounds.waited += d }

// Settled records a wait for the port's children and connections to end (the longest counts).
func (a *Attempt) Settled(d time.Duration) { a.bounds.settled = max(a.bounds.settled, d) }

// unasserted says what the scenario declared that none of its steps asserted (a stale tag
// would pin a bound nothing checks); "" when all was. Asked of an attempt that passed.
func (a *Attempt) unasserted() string {
	d := a.bounds.declared
	for _, b := range []struct {
		tag string
		v   time.Duration
	}{{timing.TagWithin, d.Within}, {timing.TagWithinLimit, d.WithinLimit}, {timing.TagWithinTimeout, d.WithinTimeout}} {
		if b.v > 0 && !a.bounds.asserted[b.tag] {
			return fmt.Sprintf("the scenario declares @%s%d, but no step asserts it", b.tag, b.v/time.Millisecond)
		}
	}
	if q := a.quick; q != nil && q.active {
		return fmt.Sprintf("the scenario declares @%s, but its action is no MCP config step whose limits a quick attempt cuts", timing.TagQuick)
	}
	return ""
}
