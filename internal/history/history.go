// Package history answers "from which release does each catalogue ID pass?" for one port,
// from one run over several of its releases (`--ports python@0.8.0,python@0.21.0`).
package history

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// Absent is a cell for a release that lacks the option an ID checks. It is not a failure in
// this view: an old release is not expected to have a newer option.
const Absent result.Verdict = "absent in this release"

// absentMessage is how a port says it lacks an option: the adapter's "unsupported", Python's
// TypeError for an unknown keyword and AttributeError for a missing function, JS's "is not a
// function", Java's missing method or class.
var absentMessage = regexp.MustCompile(`unsupported: |unexpected keyword argument|has no attribute|is not a function|NoSuchMethod|NoClassDefFound|ClassNotFound`)

// View is one port's releases (oldest first) and, per ID, each release's cell.
type View struct {
	Port     string
	Releases []string
	Rows     []Row
}

// Row is one catalogue ID across the releases.
type Row struct {
	ID    string
	Cells []result.Verdict // pass, fail, Absent, not present, broken, … or "" when the ID was not run
	// From is the oldest release from which the ID passes in every later release, "" if the
	// newest release does not pass it.
	From string
}

// Build makes the view for port from a run's results: every implementation named
// <port>@<release>, and <port> itself under the version its adapter reported.
func Build(results []*result.PortResult, port string, ids []string) View {
	type rel struct {
		label string
		r     *result.PortResult
	}
	var rels []rel
	for _, r := range results {
		p, release, _ := strings.Cut(r.Port, "@")
		if p != port {
			continue
		}
		if release == "" {
			// The version without the build folder adapters add: "0.16.0 (/tmp/tn/js)" is 0.16.0.
			release, _, _ = strings.Cut(fmt.Sprint(r.Identity["version"]), " (")
			if !r.Present || release == "" || release == "<nil>" {
				release = "(pinned)"
			}
		}
		rels = append(rels, rel{release, r})
	}
	sort.SliceStable(rels, func(i, j int) bool { return Less(rels[i].label, rels[j].label) })
	v := View{Port: port}
	for _, x := range rels {
		v.Releases = append(v.Releases, x.label)
	}
	for _, id := range ids {
		row := Row{ID: id}
		any := false
		for _, x := range rels {
			c := cell(x.r, id)
			any = any || (c != "" && c != result.NotPresent)
			row.Cells = append(row.Cells, c)
		}
		if !any {
			continue
		}
		for i := len(row.Cells) - 1; i >= 0; i-- {
			c := row.Cells[i]
			if c == result.NotPresent || c == "" {
				continue
			}
			if c != result.Pass {
				break
			}
			row.From = v.Releases[i]
		}
		v.Rows = append(v.Rows, row)
	}
	return v
}

// cell is one release's verdict on one ID as this view shows it.
func cell(r *result.PortResult, id string) result.Verdict {
	v := r.Cells[id]
	switch v {
	case result.Unsupported:
		return Absent
	case result.Fail, result.KnownFailure, result.KnownDifferent:
		n, absent := 0, 0
		for _, o := range r.Scenarios {
			if o.Status == result.StatusPass || !slicesContains(o.Tags, id) {
				continue
			}
			n++
			if o.Status == result.StatusUnsupported || absentMessage.MatchString(o.Message) {
				absent++
			}
		}
		if n > 0 && absent == n {
			return Absent
		}
		return result.Fail
	case result.UnexpectedPass:
		return result.Pass
	}
	return v
}

func slicesContains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// Less orders release labels as versions: numeric parts numerically, a leading "v" ignored.
func Less(a, b string) bool {
	pa, pb := parts(a), parts(b)
	for i := 0; i < len(pa) && i < len(pb); i++ {
		na, ea := strconv.Atoi(pa[i])
		nb, eb := strconv.Atoi(pb[i])
		switch {
		case ea == nil && eb == nil && na != nb:
			return na < nb
		case (ea != nil || eb != nil) && pa[i] != pb[i]:
			return pa[i] < pb[i]
		}
	}
	return len(pa) < len(pb)
}

func parts(s string) []string {
	s = strings.TrimPrefix(s[strings.LastIndex(s, "/")+1:], "v")
	return strings.FieldsFunc(s, func(r rune) bool { return r == '.' || r == '-' || r == '+' })
}

var short = map[result.Verdict]string{result.Pass: "pass", result.Fail: "FAIL", Absent: "absent", result.NotPresent: "n/p",
	result.Broken: "BROKEN", result.Interrupted: "intr", result.Unresponsive: "unresp", "": "-"}

// Text writes the view as a table: one row per ID, one column per release, then "passes from".
func (v View) Text(w io.Writer) {
	if len(v.Releases) == 0 {
		fmt.Fprintf(w, "no release of %s in these results (run --ports %s@<release>,…)\n", v.Port, v.Port)
		return
	}
	width := 7
	for _, r := range v.Releases {
		width = max(width, len(r))
	}
	fmt.Fprintf(w, "%-6s", "ID")
	for _, r := range v.Releases {
		fmt.Fprintf(w, " %-*s", width, r)
	}
	fmt.Fprintf(w, "  passes from\n")
	for _, row := range v.Rows {
		fmt.Fprintf(w, "%-6s", row.ID)
		for _, c := range row.Cells {
			fmt.Fprintf(w, " %-*s", width, short[c])
		}
		from := row.From
		if from == "" {
			from = "not in " + v.Releases[len(v.Releases)-1]
		}
		fmt.Fprintf(w, "  %s\n", from)
	}
	fmt.Fprintf(w, "absent = the release lacks the option (%q); not a failure here\n", Absent)
}
