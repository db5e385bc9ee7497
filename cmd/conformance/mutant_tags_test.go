package main

import (
	"testing"

	"github.com/muthuishere/toolnexus-conformance/internal/mutant"
)

// A contract mutant is judged by the @contract features, an ADR one by the others, and a
// user's --tags wins; the caller adds ~@X.3 (no baseline in a mutant run).
func TestMutantTags(t *testing.T) {
	for _, c := range []struct{ gap, given, want string }{
		{"C4", "", "@contract"},
		{"C12", "", "@contract"},
		{"G3", "", "~@contract"},
		{"B17", "", "~@contract"},
		{"C4", "@G1.1", ""},
	} {
		if got := mutantTags(mutant.Mutant{Gap: c.gap}, c.given); got != c.want {
			t.Errorf("mutantTags(gap %s, --tags %q) = %q, want %q", c.gap, c.given, got, c.want)
		}
	}
	if got := withoutX3("~@contract"); got != "~@contract && ~@X.3" {
		t.Errorf("withoutX3 = %q", got)
	}
}
