package report

import (
	"fmt"
	"html"
	"io"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// mdFailures writes the red cells in full under a line that names them, then the known
// failures: one line each, or their cells in full when verbose.
func mdFailures(w io.Writer, cat [][2]string, results []*result.PortResult, verbose bool) {
	var red strings.Builder
	var names []string
	for _, r := range results {
		if !r.Present {
			if r.Unexpected() > 0 {
				names = append(names, mdAbsent(&red, r))
			}
			continue
		}
		if r.HarnessErr != "" {
			names = append(names, r.Port+" harness error")
			fmt.Fprintf(&red, "**%s** harness error: %s\n\n", mdInline(r.Port), mdInline(r.HarnessErr))
		}
		if r.Leaked != "" {
			names = append(names, r.Port+" leaked")
			fmt.Fprintf(&red, "**%s** leaked: %s\n\n", mdInline(r.Port), mdInline(r.Leaked))
		}
		keep := func(i int) bool { return verbose || judgedAt(r, i).Verdict.Red() }
		for _, e := range cat {
			if v := verdictOf(r, e[0]); redCell(v) {
				names = append(names, fmt.Sprintf("%s %s %s %s", symbol[v], r.Port, e[0], v))
				mdFailure(&red, r, e, v, keep)
			}
		}
	}
	known := countKnown(results)
	switch {
	case len(names) > 0:
		fmt.Fprintf(w, "**%d new or changed:** %s\n\n", len(names), mdInline(strings.Join(names, ", ")))
	case known > 0:
		fmt.Fprint(w, "Nothing new or changed: every failure is a known one.\n\n")
	default:
		fmt.Fprintln(w, "None.")
	}
	io.WriteString(w, red.String())
	if known == 0 {
		return
	}
	fmt.Fprintf(w, "#### %s\n\n", plural(known, "known failure", "known failures"))
	if verbose {
		all := func(int) bool { return true }
		for _, r := range results {
			for _, e := range cat {
				if v := verdictOf(r, e[0]); !redCell(v) && hasKnown(r, e[0]) {
					mdFailure(w, r, e, v, all)
				}
			}
		}
		return
	}
	fmt.Fprint(w, "Listed in `expectations/<implementation>.txt` (reason, fingerprint); report.html or `--verbose` has their evidence.\n\n")
	for _, r := range results {
		for i := range r.Scenarios {
			if knownScenario(r, i) {
				scenario, reason, fp := knownParts(r, i)
				fmt.Fprintf(w, "- **%s** %s — %s `%s`\n", mdInline(r.Port), mdInline(scenario), mdInline(reason), fp)
			}
		}
	}
	fmt.Fprintln(w)
}

// hasKnown reports whether one of r's scenarios tagged id is a known failure.
func hasKnown(r *result.PortResult, id string) bool {
	for i, o := range r.Scenarios {
		if hasTag(o.Tags, id) && knownScenario(r, i) {
			return true
		}
	}
	return false
}

// mdAbsent writes one block for an implementation that did not run and fails the run
// (broken, interrupted, required): one, not one per catalogue ID. It returns its name.
func mdAbsent(w io.Writer, r *result.PortResult) string {
	v := result.NotPresent
	switch {
	case r.Broken:
		v = result.Broken
	case r.Interrupted != "":
		v = result.Interrupted
	}
	fmt.Fprintf(w, "<details><summary>%s <b>%s</b> %s</summary>\n\n", symbol[v], html.EscapeString(r.Port), html.EscapeString(absence(r)))
	if r.LogTail != "" {
		fmt.Fprint(w, "log tail:\n\n"+fence(clip(r.LogTail, mdMaxStderr, true), "text"))
	}
	fmt.Fprintf(w, "Replay: `./bin/conformance run --ports %s`\n\n</details>\n\n", r.Port)
	return fmt.Sprintf("%s %s %s", symbol[v], r.Port, v)
}
