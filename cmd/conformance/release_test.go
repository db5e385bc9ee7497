package main

import (
	"strings"
	"testing"
)

func TestImplementation(t *testing.T) {
	for _, ok := range []string{"python", "python@0.15.0", "go@golang/v0.9.5", "js@v0.16.0"} {
		if err := implementation(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for bad, want := range map[string]string{"python@": "no release after @", "ruby@1.0": `unknown port "ruby"`, "pyhton": `unknown port "pyhton"`} {
		if err := implementation(bad); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error containing %q", bad, err, want)
		}
	}
}

// TestWithoutX3: X.3 is left out of every run without a baseline, whatever the user's tags.
func TestWithoutX3(t *testing.T) {
	for in, want := range map[string]string{"": "~@X.3", "@G1.1": "@G1.1 && ~@X.3", "@G1.1,@G1.2": "@G1.1,@G1.2 && ~@X.3"} {
		if got := withoutX3(in); got != want {
			t.Errorf("withoutX3(%q) = %q, want %q", in, got, want)
		}
	}
}
