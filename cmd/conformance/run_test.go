package main

import (
	"os"
	"path/filepath"
	"testing"
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
