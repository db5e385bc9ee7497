package main

import (
	"strings"
	"testing"
	"time"
)

// TestImplementationNames: --ports takes implementations and releases, and names what is wrong.
func TestImplementationNames(t *testing.T) {
	resolve := func(list string) ([]string, error) {
		c := common{portList: list, cache: t.TempDir(), prepareTimeout: time.Minute}
		got, _, err := c.resolve()
		return got, err
	}
	for _, ok := range []string{"reference", "go", "python", "python@0.15.0", "js@v0.16.0", "reference,go,python@0.8.0,python@0.21.0"} {
		if got, err := resolve(ok); err != nil || strings.Join(got, ",") != ok {
			t.Errorf("%s: %v, %v", ok, got, err)
		}
	}
	for bad, want := range map[string]string{
		"python@":       "no release after @",
		"ruby@1.0":      `unknown implementation "ruby@1.0"`,
		"pyhton":        `unknown implementation "pyhton"`,
		"reference@1.0": "own library, which has no releases",
		"go@v1 2":       "is not a version",
		"python,python": "named twice",
	} {
		if _, err := resolve(bad); err == nil || !strings.Contains(err.Error(), want) {
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
