package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The reference runs on every default run, and --ports runs exactly what it names (a CI job per
// implementation and a replay line rely on it: merge refuses an implementation given twice);
// README and SPEC.md say so, not that the reference always runs.
func TestPortsRunsOnlyWhatItNamesAsTheDocsSay(t *testing.T) {
	resolve := func(list string) []string {
		c := common{portList: list, cache: t.TempDir(), prepareTimeout: time.Minute}
		got, _, err := c.resolve()
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if got := resolve(""); !slices.Contains(got, referenceImpl) {
		t.Errorf("the default run %v has no reference", got)
	}
	if got := resolve("python"); !slices.Equal(got, []string{"python"}) {
		t.Errorf("--ports python runs %v", got)
	}
	for _, doc := range []string{"README.md", "SPEC.md"} {
		b, err := os.ReadFile(filepath.Join(harnessRoot(t), doc))
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(string(b)), " ")
		if !strings.Contains(text, "runs exactly the implementations it names") {
			t.Errorf("%s does not say that --ports runs exactly the implementations it names", doc)
		}
		for _, claim := range []string{"always run:", "reference and always runs", "required on every run, never from a checkout"} {
			if strings.Contains(text, claim) {
				t.Errorf("%s says %q: the reference runs only on a default run or when named", doc, claim)
			}
		}
	}
}
