package main

import (
	"testing"

	"github.com/muthuishere/toolnexus-conformance/internal/suite"
	"github.com/muthuishere/toolnexus-conformance/steps"
)

// Every golden copy diff offers is one it can show: x4-returned, or one some scenario
// compares with (TestDiffComparesWithAGoldenCopy runs one of each kind).
func TestDiffShowsEveryGoldenCopy(t *testing.T) {
	root := harnessRoot(t)
	features, err := suite.LoadFeatures(root, steps.Library().Names()...)
	if err != nil {
		t.Fatal(err)
	}
	names := goldenNames(root)
	if len(names) < 20 {
		t.Fatalf("golden copies found: %v", names)
	}
	for _, name := range names {
		shown := name == x4Returned
		for _, s := range features.Scenarios {
			shown = shown || comparesWith(s, name)
		}
		if !shown {
			t.Errorf("diff offers %q, but no scenario compares with it", name)
		}
	}
}
