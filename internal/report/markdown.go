package report

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
	"github.com/muthuishere/toolnexus-conformance/internal/timing"
)

// GitHub caps a step summary at 1 MiB, so one assertion or stderr tail may only take this much
// of the Markdown; report.html and results.json keep them whole.
const (
	mdMaxMessage = 8000
	mdMaxStderr  = 2000
)

// Markdown writes the run for $GITHUB_STEP_SUMMARY: ID x port table, port lines, failures
// (what is red in full, then one line per known failure, or its evidence too when verbose).
func Markdown(w io.Writer, cat [][2]string, results []*result.PortResult, verbose bool, v ...result.Versions) error {
	// A failure in full is one <details> block per cell, the assertion in a code block.
	b := bufio.NewWriter(w)
	fmt.Fprintln(b, "## toolnexus conformance")
	fmt.Fprintln(b)
	if line := runLine(v...); line != "" {
		fmt.Fprintf(b, "%s\n\n", mdInline(line))
	}
	if why := stopped(results); why != "" {
		fmt.Fprintf(b, "> **The run was interrupted (%s).** Scenarios after the stop are \"not run\": this is not a verdict.\n\n", mdInline(why))
	}
	fmt.Fprint(b, "| ID | title |")
	for _, r := range results {
		fmt.Fprintf(b, " %s |", mdCell(r.Port))
	}
	fmt.Fprint(b, "\n|---|---|")
	for range results {
		fmt.Fprint(b, "---|")
	}
	fmt.Fprintln(b)
	for _, e := range shownIDs(cat, results) {
		fmt.Fprintf(b, "| %s | %s |", e[0], mdCell(e[1]))
		for _, r := range results {
			v := verdictOf(r, e[0])
			if v == result.NotPresent {
				// The glyph alone: the column says why below, and absent ports must not take
				// the table's width from the ones that ran.
				fmt.Fprintf(b, " %s |", symbol[v])
				continue
			}
			fmt.Fprintf(b, " %s %s |", symbol[v], v)
		}
		fmt.Fprintln(b)
	}

	fmt.Fprintln(b)
	fmt.Fprintln(b, "### Ports")
	fmt.Fprintln(b)
	for _, r := range results {
		if !r.Present {
			v := result.NotPresent
			if r.Broken {
				v = result.Broken
			}
			fmt.Fprintf(b, "- **%s** %s %s\n", r.Port, symbol[v], mdInline(absence(r)))
			continue
		}
		line := fmt.Sprintf("- **%s** (%s): %s; %s", r.Port, mdInline(describe(r)), tally(r), scenarioTally(r))
		if r.HarnessErr != "" {
			line += "; **harness error:** " + mdInline(r.HarnessErr)
		}
		if r.Unresponsive != "" {
			line += "; **adapter unresponsive:** " + mdInline(r.Unresponsive)
		}
		if r.Leaked != "" {
			line += "; **leaked:** " + mdInline(r.Leaked)
		}
		if r.VersionWarning != "" {
			line += "; warning: " + mdInline(r.VersionWarning)
		}
		if h := parityOf(r); h != nil {
			line += "; " + h.Line
			if len(r.Parity.Differ) > 0 {
				var keys []string
				for _, d := range r.Parity.Differ {
					keys = append(keys, d.Key)
				}
				line += ": " + mdInline(strings.Join(keys, ", ")) + " (diffs in report.html and results.json)"
			}
		}
		fmt.Fprintln(b, line)
	}

	fmt.Fprintln(b)
	fmt.Fprintln(b, "### Failures")
	fmt.Fprintln(b)
	mdFailures(b, cat, results, verbose)
	return b.Flush()
}

// mdFailure writes one failing cell's <details> block with the evidence of the scenarios
// keep accepts.
func mdFailure(b io.Writer, r *result.PortResult, e [2]string, v result.Verdict, keep func(i int) bool) {
	fmt.Fprintf(b, "<details><summary>%s <b>%s</b> · <b>%s</b> %s: %s</summary>\n\n",
		symbol[v], html.EscapeString(r.Port), html.EscapeString(e[0]), html.EscapeString(string(v)), html.EscapeString(e[1]))
	if s := why(r, e[0], v, keep); s != "" {
		fmt.Fprintf(b, "%s\n\n", mdInline(s))
	}
	for i, o := range r.Scenarios {
		if !hasTag(o.Tags, e[0]) || !failed(o) || !keep(i) {
			continue
		}
		fmt.Fprintf(b, "**%s** (`%s`)\n\n", mdInline(o.Scenario), feature(o))
		if j := judgedAt(r, i); j.Level != "" {
			fmt.Fprintf(b, "%s, rule: %s\n\n", j.Level, mdInline(j.Source))
			if c := replayScenario(r.Port, j.Key.ID); c != "" {
				fmt.Fprintf(b, "Replay this scenario: `%s`\n\n", c)
			}
		}
		fmt.Fprint(b, fence(clip(o.Message, mdMaxMessage, false), lang(o.Message)))
		if l := timing.LimitsNote(o.Quick, o.Retried); l != "" {
			fmt.Fprintf(b, "%s\n\n", mdInline(l))
		}
		if o.Stderr != "" {
			fmt.Fprintln(b, "adapter stderr (tail):")
			fmt.Fprintln(b)
			fmt.Fprint(b, fence(clip(o.Stderr, mdMaxStderr, true), "text"))
		}
	}
	fmt.Fprintf(b, "Replay: `%s`\n\n</details>\n\n", replay(r.Port, e[0]))
}

// mdCell makes text safe inside one table cell.
func mdCell(s string) string {
	return strings.ReplaceAll(mdInline(s), "|", `\|`)
}

// mdInline makes text safe on one Markdown line: no newlines, no raw HTML.
func mdInline(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// fence wraps text in a code block whose fence is longer than any backtick run inside it.
func fence(s, lang string) string {
	run, longest := 0, 0
	for _, c := range s {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", max(3, longest+1))
	return f + lang + "\n" + strings.TrimRight(s, "\n") + "\n" + f + "\n\n"
}

// lang picks "diff" for go-cmp diffs so GitHub colours the -want/+got lines.
func lang(msg string) string {
	if strings.Contains(msg, "(-want +got)") || strings.Contains(msg, "(-reference +") {
		return "diff"
	}
	return "text"
}

// clip shortens s to at most n bytes on a line boundary, keeping the head (or the tail, for
// logs), and says how much it dropped.
func clip(s string, n int, tail bool) string {
	if len(s) <= n {
		return s
	}
	if tail {
		cut := s[len(s)-n:]
		if i := strings.IndexByte(cut, '\n'); i >= 0 && i < len(cut)-1 {
			cut = cut[i+1:]
		}
		return fmt.Sprintf("… (%d earlier bytes in report.html)\n%s", len(s)-len(cut), strings.ToValidUTF8(cut, ""))
	}
	cut := s[:n]
	if i := strings.LastIndexByte(cut, '\n'); i > 0 {
		cut = cut[:i]
	}
	return fmt.Sprintf("%s\n… (%d more bytes in report.html)", strings.ToValidUTF8(cut, ""), len(s)-len(cut))
}
