package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

func TestMarkdown(t *testing.T) {
	var buf bytes.Buffer
	if err := Markdown(&buf, testCatalogue, richRun(), false); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, want := range []string{
		"| ID | title | go | python | js |",
		"|---|---|---|---|---|",
		"| G1.1 | RequestParams keys reach the top level of the body, four paths | ✅ pass | ⬜ | ⚠️ known failure |",
		`(max_tokens 999 \| not 4096) | ❌ fail | ⬜ | ✅ pass |`,
		"stripped &amp; a warning names &lt;each&gt; | ➖ unsupported |",
		"| X.1 |", "❗ unexpected pass |",
		"- **go** (toolnexus v1.4.0 on go1.26.8): 2 pass, 1 fail, 1 unsupported; 4 scenarios: 2 passed, 1 failed, 1 unsupported; X.4: 1 of 3 contract scenarios returned other values than the reference (never a verdict): c4-rpc-error (diffs in report.html and results.json)",
		"- **python** ⬜ not present: no python3 &gt;= 3.10 on PATH (found none)",
		"### Failures",
		"<details><summary>❌ <b>go</b> · <b>G1.2</b> fail:",
		"```diff\n" + failMessage + "\n```",
		"adapter stderr (tail):",
		"(judged on its quick first attempt: the cancel, deadline and stalled servers' timeouts the scenario gives were cut to 150ms, SPEC.md §3)",
		"Replay: `./bin/conformance run --ports go --tags '@G1.2'`",
		"**3 new or changed:** ❌ go G1.2 fail, ➖ go A4.1 unsupported, ❗ js X.1 unexpected pass\n",
		"<details><summary>❗ <b>js</b> · <b>X.1</b> unexpected pass:",
		"#### 1 known failure\n",
		"- **js** params reach the body on every path — anthropic bodies carry \"system\": \"\" `" + result.Fingerprint(jsFailure) + "`\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	if n := strings.Count(md, "<details>"); n != 3 {
		t.Errorf("%d <details> blocks, want 3 (go G1.2, go A4.1 unsupported, js X.1; js G1.1 is known)", n)
	}
	if strings.Count(md, "<details>") != strings.Count(md, "</details>") {
		t.Error("unbalanced <details>")
	}
	// Every table row has as many cells as the header.
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "| ") && strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") != 6 {
			t.Errorf("row with the wrong number of cells: %s", line)
		}
	}
}

func TestMarkdownNoFailures(t *testing.T) {
	results := syntheticRun()[:1]
	results[0].Scenarios = results[0].Scenarios[:1]
	judge(results)
	var buf bytes.Buffer
	if err := Markdown(&buf, testCatalogue, results, false); err != nil {
		t.Fatal(err)
	}
	if md := buf.String(); !strings.Contains(md, "### Failures\n\nNone.\n") || strings.Contains(md, "| G1.2 |") {
		t.Errorf("want only the run row and no failures:\n%s", md)
	}
}

func TestFence(t *testing.T) {
	got := fence("a ```` b", "text")
	if !strings.HasPrefix(got, "`````text\n") || !strings.HasSuffix(got, "\n`````\n\n") {
		t.Errorf("fence does not outrun the backticks inside: %q", got)
	}
}

func TestClip(t *testing.T) {
	long := strings.Repeat("line of text\n", 1000)
	head := clip(long, 100, false)
	if len(head) > 200 || !strings.Contains(head, "more bytes in report.html") {
		t.Errorf("head clip: %q", head)
	}
	tail := clip(long, 100, true)
	if len(tail) > 200 || !strings.HasPrefix(tail, "… (") || !strings.HasSuffix(tail, "line of text\n") {
		t.Errorf("tail clip: %q", tail)
	}
	if clip("short", 100, false) != "short" {
		t.Error("short text was clipped")
	}
}
