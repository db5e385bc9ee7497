package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// known is one of triageRun's known failures as a report must name it.
type known struct{ name, row, msg, reason string }

var triageKnown = []known{
	{"params reach the body on every path", "", knownParams, "reason-params: temperature is dropped"},
	{"params reach the body (anthropic run)", "anthropic | run", knownRow, "reason-row: metadata is dropped"},
	{"reserved keys are stripped with a warning", "", knownStrip, "reason-strip: no warnings"},
}

const newName = "reserved keys are stripped from the body"

func matrixText(results []*result.PortResult, verbose bool) string {
	var buf bytes.Buffer
	Matrix(&buf, []string{"G1.1", "G1.2", "A4.1", "X.1"}, results, false, verbose)
	return buf.String()
}

func markdownText(t *testing.T, results []*result.PortResult, verbose bool) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Markdown(&buf, testCatalogue, results, verbose); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// linesWith is every line of out that holds s.
func linesWith(out, s string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, s) {
			lines = append(lines, l)
		}
	}
	return lines
}

// checkTriage wants the new failure's evidence (at redAt) before every known failure, and each
// known failure on one line with its port, row, reason and fingerprint, without its evidence.
func checkTriage(t *testing.T, format, out string, redAt int) {
	t.Helper()
	if redAt < 0 {
		t.Fatalf("%s: no block for the new failure:\n%s", format, out)
	}
	if !strings.Contains(out, "1 new or changed") || !strings.Contains(out, newStripping) {
		t.Errorf("%s: no \"1 new or changed\" heading or no evidence for the new failure:\n%s", format, out)
	}
	for _, k := range triageKnown {
		lines := linesWith(out, k.name)
		if len(lines) != 1 {
			t.Errorf("%s: %q is on %d lines, want one:\n%s", format, k.name, len(lines), out)
			continue
		}
		for _, want := range []string{"node", k.row, k.reason, result.Fingerprint(k.msg)} {
			if !strings.Contains(lines[0], want) {
				t.Errorf("%s: the line for %q lacks %q: %s", format, k.name, want, lines[0])
			}
		}
		if at := strings.Index(out, lines[0]); at < redAt {
			t.Errorf("%s: known %q comes before the new failure:\n%s", format, k.name, out)
		}
		if strings.Contains(out, k.msg) {
			t.Errorf("%s: the evidence of known %q is shown without --verbose:\n%s", format, k.name, out)
		}
	}
}

// The terminal puts what needs no action first (known failures as a count per implementation)
// and what is red last: the new failure's evidence, then its headline, then the summary.
func TestMatrixShowsRedLast(t *testing.T) {
	out := matrixText(triageRun(), false)
	known := strings.Index(out, "3 known failures, as their expectations list them (node 3 in expectations/node.txt;")
	red := strings.Index(out, "--- node: "+newName)
	headline := strings.Index(out, "1 new or changed: 1 fail (evidence above)")
	summary := strings.Index(out, "node      2 pass")
	if known < 0 || red < known || headline < red || summary < headline {
		t.Errorf("want the known count (at %d), then the red evidence (%d), its headline (%d), the summary (%d):\n%s",
			known, red, headline, summary, out)
	}
	for _, k := range triageKnown {
		if strings.Contains(out, k.name) || strings.Contains(out, k.msg) {
			t.Errorf("known %q is listed without --verbose:\n%s", k.name, out)
		}
	}
}

func TestMarkdownShowsNewFirst(t *testing.T) {
	md := markdownText(t, triageRun(), false)
	checkTriage(t, "report.md", md, strings.Index(md, "<details><summary>❌ <b>node</b> · <b>A4.1</b> fail:"))
	if n := strings.Count(md, "<details>"); n != 1 {
		t.Errorf("%d <details> blocks, want the new failure's only:\n%s", n, md)
	}
}

// --verbose shows the known failures' evidence too: in report.md after the new one, on the
// terminal before it (the red evidence stays last, above the summary).
func TestVerboseShowsKnownEvidence(t *testing.T) {
	for format, out := range map[string]string{
		"terminal": matrixText(triageRun(), true), "report.md": markdownText(t, triageRun(), true)} {
		red := strings.Index(out, newStripping)
		for _, k := range triageKnown {
			at := strings.Index(out, k.msg)
			if at < 0 || (format == "terminal") != (at < red) {
				t.Errorf("%s --verbose: known evidence %q missing or on the wrong side of the new failure (at %d, new at %d):\n%s", format, k.msg, at, red, out)
			}
		}
	}
}

// With nothing red, the run says so: report.md in its first line, above the known failures;
// the terminal last, below their count.
func TestNothingNew(t *testing.T) {
	md := markdownText(t, allKnown(), false)
	at, first := strings.Index(md, "othing new or changed"), strings.Index(md, triageKnown[0].name)
	if at < 0 || first < 0 || at > first || strings.Contains(md, "1 new or changed") {
		t.Errorf("report.md: no \"nothing new or changed\" line above the known failures:\n%s", md)
	}
	out := matrixText(allKnown(), false)
	at, count := strings.Index(out, "nothing new or changed: every failure is a known one"), strings.Index(out, "3 known failures")
	if at < 0 || count < 0 || at < count || strings.Contains(out, "1 new or changed") {
		t.Errorf("terminal: no \"nothing new or changed\" line below the known failures' count:\n%s", out)
	}
}

var articleRe = regexp.MustCompile(`(?s)<article class="([^"]*)"[^>]*>.*?</article>`)

// panel is the evidence section with this id.
func panel(t *testing.T, page, id string) string {
	t.Helper()
	at := strings.Index(page, `id="`+id+`"`)
	if at < 0 {
		t.Fatalf("no panel %s", id)
	}
	end := strings.Index(page[at:], "</section>")
	return page[at : at+end]
}

func TestHTMLMarksNew(t *testing.T) {
	var buf bytes.Buffer
	if err := HTML(&buf, testCatalogue, triageRun()); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	var marked []string
	for _, m := range articleRe.FindAllStringSubmatch(page, -1) {
		if strings.Contains(" "+m[1]+" ", " new ") {
			marked = append(marked, m[0])
		}
	}
	if len(marked) != 1 || !strings.Contains(marked[0], newName) || !strings.Contains(marked[0], `<span class="mark">new</span>`) {
		t.Errorf("want the new marker on the new failure's entry only, got %d marked:\n%s", len(marked), strings.Join(marked, "\n"))
	}
	a41 := panel(t, page, "ev-node-A4.1")
	if n, k := strings.Index(a41, newName), strings.Index(a41, triageKnown[2].name); n < 0 || k < 0 || n > k {
		t.Errorf("A4.1: the new failure (at %d) does not come before the known one (at %d):\n%s", n, k, a41)
	}
	// Each known note is a paragraph of its own.
	g11 := panel(t, page, "ev-node-G1.1")
	notes := regexp.MustCompile(`(?s)<p class="note">(.*?)</p>`).FindAllStringSubmatch(g11, -1)
	seen := 0
	for _, n := range notes {
		for _, k := range triageKnown[:2] {
			if strings.Contains(n[1], k.reason) {
				seen++
			}
		}
		if strings.Contains(n[1], triageKnown[0].reason) && strings.Contains(n[1], triageKnown[1].reason) {
			t.Errorf("two notes run together in one paragraph: %s", n[0])
		}
	}
	if seen != 2 {
		t.Errorf("G1.1: %d note paragraphs name a known reason, want 2:\n%s", seen, g11)
	}
}

// A listed scenario that went red (here an unexpected pass) is marked "changed".
func TestHTMLMarksChanged(t *testing.T) {
	var buf bytes.Buffer
	if err := HTML(&buf, testCatalogue, richRun()); err != nil {
		t.Fatal(err)
	}
	x1 := panel(t, buf.String(), "ev-js-X.1")
	if !regexp.MustCompile(`<article class="scenario new"[^>]*>\s*<h3>.*<span class="mark">changed</span>`).MatchString(x1) {
		t.Errorf("js X.1's unexpected pass is not marked changed:\n%s", x1)
	}
}

// What is red about an implementation as a whole counts too: with it nothing is "nothing new".
func TestMatrixCountsPortStates(t *testing.T) {
	absent := []*result.PortResult{
		{Port: "java", Broken: true, Reason: "prepare failed (exit 1)", LogTail: "[ERROR] javac"},
		{Port: "csharp", Required: true, Reason: "no dotnet on PATH"},
		{Port: "js", Reason: "node is not on PATH"}}
	judge(absent)
	results := append(allKnown(), absent...)
	out := matrixText(results, false)
	heading := strings.Index(out, "2 new or changed: 1 broken, 1 not present (evidence above)\n")
	broken, required := strings.Index(out, "--- java: BROKEN: prepare failed (exit 1)\n    log tail:\n    [ERROR] javac"),
		strings.Index(out, "--- csharp: not present (required")
	if heading < 0 || broken < 0 || required < broken || heading < required || strings.Contains(out, "nothing new") || strings.Contains(out, "--- js") {
		t.Errorf("want the broken java and the required csharp counted and shown, js (optional) not:\n%s", out)
	}
}

// An entry whose scenario was inconclusive is named with its file:line, not red.
func TestUnconfirmedEntryIsNamed(t *testing.T) {
	results := allKnown()
	node := results[0]
	e := node.Expectations.Entries[0]
	for i := range node.Judged {
		if node.Judged[i].Entry == e {
			node.Scenarios[i].Status = result.StatusInconclusive
			node.Judged[i].Status, node.Judged[i].Verdict = result.StatusInconclusive, result.Inconclusive
		}
	}
	out := matrixText(results, false)
	if !strings.Contains(out, "1 expectation entry not confirmed") || len(linesWith(out, "expectations/node.txt:3")) != 1 {
		t.Errorf("terminal: the unconfirmed entry is not named at its line:\n%s", out)
	}
	if !strings.Contains(out, "nothing new or changed") {
		t.Errorf("terminal: an unconfirmed entry must not be red:\n%s", out)
	}
}
