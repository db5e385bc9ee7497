package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// tdRe and attrRe read the grid's cells out of a page, as written or as Chromium dumps it.
var (
	tdRe   = regexp.MustCompile(`<td\b[^>]*>`)
	attrRe = regexp.MustCompile(`([a-zA-Z-]+)="([^"]*)"`)
)

// gridCells maps "port/ID" to the data-verdict of every td whose class includes "cell", and
// fails on a duplicate.
func gridCells(t *testing.T, page string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, td := range tdRe.FindAllString(page, -1) {
		attrs := map[string]string{}
		for _, m := range attrRe.FindAllStringSubmatch(td, -1) {
			attrs[m[1]] = strings.NewReplacer("&amp;", "&", "&quot;", `"`, "&#34;", `"`).Replace(m[2])
		}
		if !strings.Contains(" "+attrs["class"]+" ", " cell ") {
			continue
		}
		key := attrs["data-port"] + "/" + attrs["data-id"]
		if _, dup := out[key]; dup {
			t.Errorf("two cells for %s", key)
		}
		out[key] = attrs["data-verdict"]
	}
	return out
}

// wantCells is the synthetic run's grid.
var wantCells = map[string]string{
	"go/G1.1": "pass", "go/G1.2": "fail", "go/A4.1": "unsupported", "go/X.1": "pass",
	"python/G1.1": "not present", "python/G1.2": "not present", "python/A4.1": "not present", "python/X.1": "not present",
}

func TestHTML(t *testing.T) {
	var buf bytes.Buffer
	if err := HTML(&buf, testCatalogue, syntheticRun()); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	got := gridCells(t, page)
	if len(got) != len(wantCells) {
		t.Errorf("%d cells, want %d", len(got), len(wantCells))
	}
	for k, v := range wantCells {
		if got[k] != v {
			t.Errorf("%s: data-verdict %q, want %q", k, got[k], v)
		}
	}
	if !strings.Contains(page, `<td class="cell" data-id="G1.2" data-port="go" data-verdict="fail"`) {
		t.Error("the failing cell is not written as the brief says")
	}
	for _, want := range []string{
		`id="ev-go-G1.2"`,
		"./bin/conformance run --ports go --tags &#39;@G1.2&#39;",
		"not present: no python3 &gt;= 3.10 on PATH (found none)",
		"toolnexus v1.4.0", "go1.26.8",
		`<span class="del">-	999,</span>`, `<span class="add">&#43;	4096,</span>`,
		"&lt;script&gt;alert(&#39;stderr&#39;)&lt;/script&gt;",
		"&#34;content&#34;: &#34;hi &lt;/pre&gt;&lt;b&gt;&#34;",
		"request 2 of 2",
		"stripped &amp; a warning names &lt;each&gt;",
		"X.4: 1 of 3 contract scenarios returned other values than the reference",
		`c4-rpc-error (-reference +port)`, `<span class="del">- a</span>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "<script>alert") || strings.Contains(page, "</pre><b>") {
		t.Error("captured text reached the page unescaped")
	}
	// Self-contained: nothing is fetched.
	for _, bad := range []string{"src=", "href=", "@import", "url(", "http://", "https://"} {
		if strings.Contains(page, bad) {
			t.Errorf("page refers outside itself: %q", bad)
		}
	}
	if n := strings.Count(page, "<script>"); n != 1 {
		t.Errorf("%d scripts, want the one inline script", n)
	}
}
