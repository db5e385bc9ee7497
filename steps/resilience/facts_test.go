package resilience

import (
	"testing"

	"github.com/muthuishere/toolnexus-conformance/internal/ports"
)

// A cancel guarantee covers the modes its seam names (js: "AbortSignal on run/ask"), every
// mode when the table names none; js's facts.json says run only.
func TestCancelGuaranteeCoversTheSeamsModes(t *testing.T) {
	all := cancelFact{Guarantee: "mid-request"}
	runOnly := cancelFact{Guarantee: "mid-request", Modes: []string{"run"}}
	if !all.covers("stream") || !all.covers("run") || !runOnly.covers("run") || runOnly.covers("stream") {
		t.Errorf("covers: every mode without modes, only the named ones with them")
	}
	f, err := ports.LoadFacts("../..", "js", func([]byte) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	var c cancelFact
	if err := f.Decode("cancel", &c); err != nil {
		t.Fatal(err)
	}
	if c.covers("stream") {
		t.Errorf("js's cancel guarantee covers the stream; upstream SPEC §7D's seam is \"AbortSignal on run/ask\"")
	}
}
