package main

import (
	"strings"
	"testing"
)

// A test binary has no module version; the fallback must still say something useful.
func TestHarnessVersionIsNeverEmpty(t *testing.T) {
	v := harnessVersion()
	if v == "" || v == "(devel)" || (!strings.HasPrefix(v, "devel") && !strings.HasPrefix(v, "v")) {
		t.Errorf("harness version %q", v)
	}
}
