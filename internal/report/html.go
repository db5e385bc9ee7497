package report

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
	"github.com/muthuishere/toolnexus-conformance/internal/timing"
)

var (
	//go:embed page.tmpl
	pageTmpl string
	//go:embed page.css
	pageCSS string
	//go:embed page.js
	pageJS string
)

// page is the HTML report's template; html/template escapes every value put into it.
var page = template.Must(template.New("page").Parse(pageTmpl))

// glyph is the mark the HTML grid shows before each verdict's word (fonts everywhere have them).
var glyph = map[result.Verdict]string{
	result.Pass: "✓", result.Fail: "✗", result.UnexpectedPass: "‼", result.KnownFailure: "⚠",
	result.KnownDifferent: "≠", result.Unsupported: "–", result.NotPresent: "○", result.Broken: "✖",
	result.Interrupted: "■", result.Unresponsive: "…", NotRun: "·", // ⧗ renders as an empty box in common fonts
	result.Advice: "ℹ", result.Flaky: "≈", result.Inconclusive: "?",
}

// htmlData is everything the page template reads.
type htmlData struct {
	Generated  string
	Run        string // harness version, wall time, command line
	Stopped    string // why the run was interrupted, "" when it finished
	Unexpected int
	Totals     []htmlCount
	Ports      []htmlPort
	Rows       []htmlRow
	Legend     []htmlCount
	CSS        template.CSS
	JS         template.JS
}

// htmlCount is a verdict with how many cells have it.
type htmlCount struct {
	Verdict, Glyph string
	N              int
}

// htmlPort is one port's column header and summary line.
type htmlPort struct {
	Port, Library, Version, Runtime, Reason, Tally, Scenarios, HarnessErr, Leaked string
	Present                                                                       bool
	Bar                                                                           []htmlBar
	Parity                                                                        *htmlParity
}

// htmlParity is X.4 over every contract scenario on one port: a line, and each diff.
type htmlParity struct {
	Line  string
	Diffs []htmlParityDiff
}

type htmlParityDiff struct {
	Key   string
	Lines []htmlLine
}

// parityOf is a port's X.4 line for its card; nil when nothing was compared.
func parityOf(r *result.PortResult) *htmlParity {
	p := r.Parity
	if p == nil {
		return nil
	}
	h := &htmlParity{Line: fmt.Sprintf("X.4: all %d contract scenarios returned what the reference returned", p.Compared)}
	if len(p.Differ) > 0 {
		h.Line = fmt.Sprintf("X.4: %d of %d contract scenarios returned other values than the reference (never a verdict)", len(p.Differ), p.Compared)
	}
	for _, d := range p.Differ {
		h.Diffs = append(h.Diffs, htmlParityDiff{Key: d.Key, Lines: diffLines(d.Diff)})
	}
	return h
}

// htmlBar is one verdict's share of a port's summary bar.
type htmlBar struct {
	Verdict string
	N       int
	Percent string
}

// htmlRow is one catalogue ID across the ports.
type htmlRow struct {
	ID, Title  string
	GroupStart bool // the first row of a catalogue group (G1, A4, …) after another group
	Problem    bool // some port's verdict is one to look at
	Cells      []htmlCell
}

// htmlCell is one ID x port verdict and the evidence panel it opens.
type htmlCell struct {
	ID, Title, Port, Verdict, Glyph, Anchor, Why, Replay, Reason string
	Scenarios                                                    []htmlScenario
}

// htmlScenario is one scenario's evidence inside a cell's panel. Mark is "new" or "changed"
// on a red verdict; Note is the verdict's note (its expectation entry).
type htmlScenario struct {
	Name, Feature, Status, Verdict, Mark, Note, Elapsed, Stderr string
	Level, Source, Replay                                       string
	Tags                                                        []string
	Message                                                     []htmlLine
	Bodies                                                      []htmlBody
}

// htmlLine is one line of an assertion; Class marks a go-cmp diff's removed or added lines.
type htmlLine struct{ Class, Text string }

// htmlBody is one captured request body, pretty-printed.
type htmlBody struct{ Label, JSON string }

// HTML writes one self-contained page: the ID x port grid, each cell opening its evidence.
func HTML(w io.Writer, cat [][2]string, results []*result.PortResult, v ...result.Versions) error {
	// Inline CSS and JS, nothing fetched. A cell's evidence: the failed assertions, the captured
	// wire bodies, the adapter's stderr tail and the command that replays just that cell.
	d := htmlData{Generated: now().UTC().Format(time.RFC3339), Stopped: stopped(results), Run: runLine(v...),
		CSS: template.CSS(pageCSS), JS: template.JS(pageJS)}
	total := map[result.Verdict]int{}
	for _, r := range results {
		d.Unexpected += r.Unexpected()
		p := htmlPort{Port: r.Port, Present: r.Present, Reason: absence(r), Library: identity(r, "library"),
			Version: identity(r, "version"), Runtime: identity(r, "runtime"), HarnessErr: r.HarnessErr, Leaked: r.Leaked}
		if r.Present {
			p.Tally, p.Scenarios, p.Parity = tally(r), scenarioTally(r), parityOf(r)
		}
		count := map[result.Verdict]int{}
		for _, v := range r.Cells {
			count[v]++
			total[v]++
		}
		for _, v := range verdicts {
			if count[v] > 0 {
				p.Bar = append(p.Bar, htmlBar{Verdict: string(v), N: count[v],
					Percent: strconv.FormatFloat(100*float64(count[v])/float64(len(r.Cells)), 'f', 2, 64)})
			}
		}
		d.Ports = append(d.Ports, p)
	}
	for _, v := range verdicts {
		d.Legend = append(d.Legend, htmlCount{Verdict: string(v), Glyph: glyph[v], N: total[v]})
		if total[v] > 0 {
			d.Totals = append(d.Totals, htmlCount{Verdict: string(v), Glyph: glyph[v], N: total[v]})
		}
	}
	d.Legend = append(d.Legend, htmlCount{Verdict: string(NotRun), Glyph: glyph[NotRun]})
	prev := ""
	for _, e := range shownIDs(cat, results) {
		group, _, _ := strings.Cut(e[0], ".")
		row := htmlRow{ID: e[0], Title: e[1], GroupStart: prev != "" && group != prev}
		prev = group
		for _, r := range results {
			c := htmlCellFor(r, e)
			row.Problem = row.Problem || failing(result.Verdict(c.Verdict))
			row.Cells = append(row.Cells, c)
		}
		d.Rows = append(d.Rows, row)
	}
	var buf bytes.Buffer
	if err := page.Execute(&buf, d); err != nil {
		return err
	}
	_, err := buf.WriteTo(w)
	return err
}

// htmlCellFor gathers one cell's verdict and evidence: red scenarios first (marked new, or
// changed when listed), then failures, then the rest.
func htmlCellFor(r *result.PortResult, e [2]string) htmlCell {
	v := verdictOf(r, e[0])
	c := htmlCell{ID: e[0], Title: e[1], Port: r.Port, Verdict: string(v), Glyph: glyph[v], Anchor: "ev-" + r.Port + "-" + e[0],
		Why: why(r, e[0], v, func(int) bool { return false }), Replay: replay(r.Port, e[0])}
	switch {
	case !r.Present:
		c.Reason = absence(r)
	case v == NotRun:
		c.Reason = "this run did not judge " + e[0] + " on " + r.Port + ": no scenario tagged with it ran (deselected by --tags, or the run stopped early)"
	}
	var idx []int
	for i, o := range r.Scenarios {
		if hasTag(o.Tags, e[0]) {
			idx = append(idx, i)
		}
	}
	rank := func(i int) int {
		switch {
		case judgedAt(r, i).Verdict.Red():
			return 0
		case r.Scenarios[i].Status == result.StatusFail:
			return 1
		case r.Scenarios[i].Status == result.StatusUnsupported:
			return 2
		}
		return 3
	}
	sort.SliceStable(idx, func(a, b int) bool { return rank(idx[a]) < rank(idx[b]) })
	for _, i := range idx {
		c.Scenarios = append(c.Scenarios, htmlScenarioFor(r, i))
	}
	return c
}

// htmlScenarioFor is one scenario's evidence, with its note and, when red, its mark.
func htmlScenarioFor(r *result.PortResult, i int) htmlScenario {
	o, j := r.Scenarios[i], judgedAt(r, i)
	s := htmlScenario{Name: o.Scenario, Feature: feature(o), Status: string(o.Status), Verdict: string(j.Verdict), Note: j.Note,
		Message: messageLines(o.Message), Elapsed: o.Elapsed.Round(time.Millisecond).String(), Stderr: o.Stderr, Tags: o.Tags,
		Level: string(j.Level), Source: j.Source, Replay: replayScenario(r.Port, j.Key.ID)}
	if j.Verdict.Red() {
		s.Mark = "new"
		if j.Entry != nil {
			s.Mark = "changed"
		}
	}
	if l := timing.LimitsNote(o.Quick, o.Retried); l != "" && o.Status != result.StatusPass {
		s.Message = append(s.Message, htmlLine{Text: l})
	}
	for k, b := range o.Bodies {
		s.Bodies = append(s.Bodies, htmlBody{Label: fmt.Sprintf("request %d of %d", k+1, len(o.Bodies)), JSON: prettyJSON(b)})
	}
	return s
}

// messageLines splits an assertion into lines, marking a go-cmp diff's -want/+got lines.
func messageLines(msg string) []htmlLine {
	if msg == "" {
		return nil
	}
	return markLines(msg, lang(msg) == "diff")
}

// diffLines is a go-cmp diff with its removed and added lines marked.
func diffLines(d string) []htmlLine { return markLines(d, true) }

func markLines(msg string, diff bool) []htmlLine {
	var out []htmlLine
	for _, l := range strings.Split(strings.TrimRight(msg, "\n"), "\n") {
		class := ""
		if diff && strings.HasPrefix(l, "-") {
			class = "del"
		} else if diff && strings.HasPrefix(l, "+") {
			class = "add"
		}
		out = append(out, htmlLine{Class: class, Text: l})
	}
	return out
}

// prettyJSON indents a captured body as it went over the wire (no HTML escaping: the template does it).
func prettyJSON(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "(not JSON: " + err.Error() + ")"
	}
	return strings.TrimRight(buf.String(), "\n")
}
