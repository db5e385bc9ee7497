package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Bad input is refused before anything runs (exit 2), whatever the flag.
func TestRunRejectsBadInput(t *testing.T) {
	ro := filepath.Join(t.TempDir(), "ro")
	if err := os.MkdirAll(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	cases := map[string][]string{
		"format xml":        {"--format", "xml"},
		"zero call timeout": {"--call-timeout", "0s"},
		"negative run":      {"--run-timeout", "-1s"},
		"zero scenario":     {"--scenario-timeout", "0"},
		"zero prepare":      {"--prepare-timeout", "0s"},
		"duplicate port":    {"--ports", "reference,reference"},
		"unknown port":      {"--ports", "pyhton"},
		"malformed tags":    {"--ports", "reference", "--tags", "@G1.1 and @G1.2"},
		"unknown tag":       {"--ports", "reference", "--tags", "@G9.9"},
		"stray argument":    {"--ports", "reference", "extra"},
	}
	if os.Geteuid() != 0 { // root writes anywhere
		cases["unwritable report dir"] = []string{"--ports", "reference", "--report-dir", ro}
	}
	for name, args := range cases {
		if code := cmdRun(args, false); code != 2 {
			t.Errorf("%s: exit %d, want 2", name, code)
		}
	}
	if code := cmdRun([]string{"--ports", "python", "--tags", "@X.1"}, true); code != 2 {
		t.Errorf("golden from python: exit %d, want 2", code)
	}
	if code := cmdMutants([]string{"--only", "no-such-mutant"}); code != 2 {
		t.Errorf("mutants --only with a typo: exit %d, want 2", code)
	}
}

// X.3 alone without a baseline is bad input that says what is missing; with a baseline the
// same tags are accepted (the run then fails later for other reasons, not at validation).
func TestX3TagsNeedBaseline(t *testing.T) {
	if code := cmdRun([]string{"--ports", "reference", "--tags", "@X.3", "--baseline", "reference"}, false); code != 2 {
		t.Errorf("--baseline without a release: exit %d, want 2", code)
	}
	c := common{portList: "reference", cache: t.TempDir(), prepareTimeout: time.Minute}
	if _, _, err := c.resolve(); err != nil {
		t.Fatal(err)
	}
	opts, err := c.options([]string{"reference"}, "@X.3")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = runImpls(context.Background(), &c, opts, "", "@X.3")
	if err == nil || !strings.Contains(err.Error(), "need --baseline") {
		t.Errorf("@X.3 without --baseline: %v, want an error naming --baseline", err)
	}
}

// Every build and copy goes to the cache CONFORMANCE_CACHE names when --cache is not given;
// --cache wins over it.
func TestCacheFollowsConformanceCache(t *testing.T) {
	env := t.TempDir()
	t.Setenv("CONFORMANCE_CACHE", env)
	var c common
	c.portList = "reference"
	if _, _, err := c.resolve(); err != nil {
		t.Fatal(err)
	}
	if c.cache != env {
		t.Errorf("cache %q, want CONFORMANCE_CACHE's %q", c.cache, env)
	}
	flag := t.TempDir()
	c = common{cache: flag, portList: "reference"}
	if _, _, err := c.resolve(); err != nil {
		t.Fatal(err)
	}
	if c.cache != flag {
		t.Errorf("cache %q, want --cache's %q", c.cache, flag)
	}
}
