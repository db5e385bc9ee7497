// Package report renders a run's verdicts: the terminal matrix and the machine formats.
package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

var short = map[result.Verdict]string{
	result.Pass: "pass", result.Fail: "FAIL", result.Unsupported: "UNSUP", result.NotPresent: "n/p",
	result.KnownFailure: "known", result.UnexpectedPass: "UNEXP", result.KnownDifferent: "KNDIFF",
	result.Broken: "BROKEN", result.Interrupted: "INTR", result.Unresponsive: "UNRESP", "": "-",
	result.Advice: "advice", result.Flaky: "FLAKY", result.Inconclusive: "inconcl",
}

// Matrix writes the catalogue ID x port grid, then the evidence of what is red, then the
// known failures (one line each unless verbose), then one summary line per port.
func Matrix(w io.Writer, ids []string, results []*result.PortResult, color, verbose bool) {
	if why := stopped(results); why != "" {
		fmt.Fprintf(w, "\nRUN STOPPED (%s): scenarios after the stop are \"not run\"; this is not a verdict\n", why)
	}
	fmt.Fprintf(w, "\n%-6s", "ID")
	for _, r := range results {
		fmt.Fprintf(w, " %-9s", r.Port)
	}
	fmt.Fprintln(w)
	for _, id := range ids {
		row := fmt.Sprintf("%-6s", id)
		any := false
		for _, r := range results {
			v := r.Cells[id]
			if v != "" {
				any = true
			}
			row += " " + paint(fmt.Sprintf("%-9s", short[v]), v, color)
		}
		if any {
			fmt.Fprintln(w, row)
		}
	}
	// What needs no action first; what is red last, above the summary, where the eye lands.
	textKnown(w, results, verbose)
	textUnconfirmed(w, results)
	textParity(w, results, verbose)
	textRed(w, results, color)
	fmt.Fprintln(w)
	for _, r := range results {
		if r.VersionWarning != "" {
			fmt.Fprintf(w, "warning: %s: %s\n", r.Port, r.VersionWarning)
		}
	}
	for _, r := range results {
		fmt.Fprintln(w, r.Summary())
	}
}

func paint(s string, verdict result.Verdict, color bool) string {
	if !color {
		return s
	}
	code := "31"
	switch {
	case verdict == result.Pass:
		code = "32"
	case verdict == result.KnownFailure:
		code = "33"
	case verdict == result.Advice:
		code = "36" // advice has its own colour: never red, never the pass green
	case verdict == result.Flaky:
		code = "35"
	case verdict == result.Inconclusive:
		code = "34"
	case verdict == result.NotPresent || verdict == "":
		code = "90"
	}
	if code == "" {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func indent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "    " + l
	}
	return strings.Join(lines, "\n")
}
