// Package report renders a run's verdicts: the terminal matrix and the machine formats.
package report

import (
	"fmt"
	"io"
	"strings"

	"toolnexus-conformance/internal/suite"
)

var short = map[string]string{
	suite.Pass: "pass", suite.Fail: "FAIL", suite.Unsupported: "unsup", suite.NotPresent: "n/p",
	suite.KnownFailure: "known", suite.UnexpectedPass: "UNEXP", "": "-",
}

// Matrix writes the catalogue ID x port grid, then each failure's evidence, then one
// summary line per port.
func Matrix(w io.Writer, ids []string, results []*suite.PortResult, color bool) {
	fmt.Fprintf(w, "\n%-6s", "ID")
	for _, r := range results {
		fmt.Fprintf(w, " %-7s", r.Port)
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
			row += " " + paint(fmt.Sprintf("%-7s", short[v]), v, color)
		}
		if any {
			fmt.Fprintln(w, row)
		}
	}
	for _, r := range results {
		for _, o := range r.Scenarios {
			if o.Status != "fail" {
				continue
			}
			fmt.Fprintf(w, "\n--- %s: %s [%s]\n%s\n", r.Port, o.Scenario, strings.Join(o.Tags, " "), indent(o.Message))
			if o.Stderr != "" {
				fmt.Fprintf(w, "    adapter stderr:\n%s\n", indent(o.Stderr))
			}
		}
	}
	fmt.Fprintln(w)
	for _, r := range results {
		fmt.Fprintln(w, r.Summary())
	}
}

func paint(s, verdict string, color bool) string {
	if !color {
		return s
	}
	code := map[string]string{suite.Pass: "32", suite.Fail: "31", suite.UnexpectedPass: "31",
		suite.KnownFailure: "33", suite.Unsupported: "35", suite.NotPresent: "90"}[verdict]
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
