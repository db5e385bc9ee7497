package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

func TestTextParityNamesWhatDiffersAndEscapesDiffs(t *testing.T) {
	var differ []result.ParityDiff
	for _, k := range []string{"k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8"} {
		differ = append(differ, result.ParityDiff{Key: k, Diff: "- a\n+ b\x1b[31m"})
	}
	rs := []*result.PortResult{
		{Port: "reference", Parity: &result.Parity{Compared: 9}},
		{Port: "go", Parity: &result.Parity{Compared: 9, Differ: differ}},
		{Port: "js"}, // nothing compared: no line
	}
	var b bytes.Buffer
	textParity(&b, rs, false)
	out := b.String()
	for _, want := range []string{"reference all 9 equal", "go        8 of 9 differ: k1, k2, k3, k4, k5, k6, and 2 more (--verbose"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "js") || strings.Contains(out, "- a") {
		t.Errorf("a port with nothing compared, or a diff without --verbose, was shown:\n%s", out)
	}
	b.Reset()
	textParity(&b, rs, true)
	if out := b.String(); !strings.Contains(out, "--- go: k8 (X.4, -reference +go)") || strings.Contains(out, "\x1b") {
		t.Errorf("verbose output lacks the last diff or carries a raw escape:\n%q", out)
	}
	b.Reset()
	textParity(&b, []*result.PortResult{{Port: "go"}}, true)
	if b.Len() != 0 {
		t.Errorf("no parity at all, yet: %q", b.String())
	}
}
