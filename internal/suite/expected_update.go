package suite

import (
	"fmt"
	"os"
	"strings"
)

// RewriteExpected makes runners/<port>/expected-failures.txt match this run: entries that
// now pass are dropped, failures not yet listed are added marked UNVERIFIED with the first
// line of their evidence, for a person to check on the wire and reword.
func RewriteExpected(path string, r *PortResult, ids []string) (added, dropped []string, err error) {
	if !r.Present {
		return nil, nil, fmt.Errorf("%s is not present; nothing to judge", r.Port)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Known failures of the %s port: \"<catalogue ID> <one-line reason seen on the wire>\".\n", r.Port)
	b.WriteString("# Rewritten by `conformance run --update-expected`; UNVERIFIED lines must be checked and reworded.\n")
	for _, id := range ids {
		switch r.Cells[id] {
		case KnownFailure:
			fmt.Fprintf(&b, "%s %s\n", id, r.Expected[id])
		case Fail:
			fmt.Fprintf(&b, "%s UNVERIFIED: %s\n", id, firstFailure(r, id))
			added = append(added, id)
		case UnexpectedPass:
			dropped = append(dropped, id)
		}
	}
	return added, dropped, os.WriteFile(path, []byte(b.String()), 0o644)
}

func firstFailure(r *PortResult, id string) string {
	for _, o := range r.Scenarios {
		if o.Status == "fail" && hasTag(o.Tags, id) {
			line, _, _ := strings.Cut(strings.TrimSpace(o.Message), "\n")
			return o.Scenario + ": " + line
		}
	}
	return "failed"
}
