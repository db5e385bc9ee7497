package main

import (
	"testing"

	"github.com/muthuishere/toolnexus-conformance/internal/mutant"
)

// A contract mutant is judged by the @contract features, an ADR one by the others, and a
// user's --tags wins; the caller adds ~@X.3 (no baseline in a mutant run).
func TestMutantTags(t *testing.T) {
	known := map[string]bool{"C9.11": true, "C9.3": true, "G1.4": true}
	for _, c := range []struct {
		gap, breaks, given, want string
		benign                   bool
	}{
		{"C4", "", "", "@contract", false},
		{"C12", "", "", "@contract", false},
		{"G3", "", "", "~@contract", false},
		{"B17", "", "", "~@contract", false},
		{"C4", "", "@G1.1", "", false},
		// A mutant is judged by the scenarios of the claims it names, each once; unknown IDs are
		// dropped, and with none known the gap decides.
		{"C9", "C9.11 (SPEC §8): usage; see also C9.3 and C9.11, C99.1", "", "@C9.11,@C9.3", false},
		{"G1", "G1.4: the key set", "", "@G1.4", false},
		{"C9", "C99.1: no such claim", "", "@contract", false},
		// A correct variant must pass its whole contract, whatever it names.
		{"C9", "C9.3: a correct variant", "", "@contract", true},
	} {
		m := mutant.Mutant{Gap: c.gap, Breaks: c.breaks, Benign: c.benign}
		if got := mutantTags(m, c.given, known); got != c.want {
			t.Errorf("mutantTags(gap %s, breaks %q, --tags %q) = %q, want %q", c.gap, c.breaks, c.given, got, c.want)
		}
	}
	if got := withoutX3("~@contract"); got != "~@contract && ~@X.3" {
		t.Errorf("withoutX3 = %q", got)
	}
}
