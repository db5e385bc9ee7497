package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
	"github.com/muthuishere/toolnexus-conformance/internal/safetext"
)

// parityNames is how many differing scenarios a port's line names before "and N more".
const parityNames = 6

// maxParityDiff caps one scenario's diff on a terminal; the JSON report keeps it whole.
const maxParityDiff = 4000

// textParity is X.4 over every contract scenario: a line per port, and each diff when
// verbose. It comes after the verdicts because it is never one.
func textParity(w io.Writer, results []*result.PortResult, verbose bool) {
	var ps []*result.PortResult
	for _, r := range results {
		if r.Parity != nil {
			ps = append(ps, r)
		}
	}
	if len(ps) == 0 {
		return
	}
	fmt.Fprintf(w, "\nX.4, what each library returned against the reference's, per contract scenario that passed (shown, never a verdict):\n")
	for _, r := range ps {
		p := r.Parity
		if len(p.Differ) == 0 {
			fmt.Fprintf(w, "  %-9s all %d equal\n", r.Port, p.Compared)
			continue
		}
		var names []string
		for i, d := range p.Differ {
			if i == parityNames {
				names = append(names, fmt.Sprintf("and %d more", len(p.Differ)-parityNames))
				break
			}
			names = append(names, d.Key)
		}
		hint := ""
		if !verbose {
			hint = " (--verbose shows the diffs)"
		}
		fmt.Fprintf(w, "  %-9s %d of %d differ: %s%s\n", r.Port, len(p.Differ), p.Compared, safetext.Line(strings.Join(names, ", ")), hint)
		if !verbose {
			continue
		}
		for _, d := range p.Differ {
			diff := d.Diff
			if len(diff) > maxParityDiff {
				diff = diff[:maxParityDiff] + "\n… (cut; the JSON report has it whole)"
			}
			fmt.Fprintf(w, "\n--- %s: %s (X.4, -reference +%s)\n%s\n", r.Port, safetext.Line(d.Key), r.Port, indent(safetext.Text(diff)))
		}
	}
}
