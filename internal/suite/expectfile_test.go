package suite

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/internal/ports"
)

// Each column is judged by the file of the version its library reports; a build past its last
// release by that release's file, with a warning; a release column only by its own file.
func TestColumnsAreJudgedByTheirVersionsFile(t *testing.T) {
	root := t.TempDir()
	for name, version := range map[string]string{
		"python@0.21.0.txt": "0.21.0", "python@0.16.0.txt": "0.16.0",
		"go@0.16.0.txt": "golang/v0.16.0", "go@0.9.0.txt": "v0.9.0", "go.txt": "v0.0.0 (replaced by /src/golang)",
		"js@0.16.0.txt": "0.16.0 (/cache/js-1)",
	} {
		writeFile(t, filepath.Join(root, "expectations", name), "version: "+version+"\n")
	}
	for _, c := range []struct {
		column, hello, file, warning string
	}{
		{"python", "0.21.0", "python@0.21.0.txt", ""},
		{"python", "0.16.0", "python@0.16.0.txt", ""},
		{"python@0.16.0", "0.16.0", "python@0.16.0.txt", ""},
		{"python@v0.21.0", "0.21.0", "python@0.21.0.txt", ""},
		{"python@0.15.0", "0.15.0", "python@0.15.0.txt", ""}, // no file: no entries, every failure red
		{"go", "golang/v0.16.0", "go@0.16.0.txt", ""},
		{"go", "0.16.0 (declared in CHANGELOG.md)", "go@0.16.0.txt", ""},
		{"go", "golang/v0.16.0-3-gabc1234", "go@0.16.0-3-gabc1234.txt", "judged by expectations/go@0.16.0.txt"},
		{"go", "golang/v0.10.0", "go@0.10.0.txt", "judged by expectations/go@0.9.0.txt"}, // 0.9 < 0.10 < 0.16
		{"go", "v0.0.0 (replaced by /src/golang)", "go.txt", ""},
		{"js", "0.17.0 (/cache/js-2)", "js@0.17.0.txt", "judged by expectations/js@0.16.0.txt"},
		{"java", "0.16.0", "java@0.16.0.txt", ""}, // none at all: an empty set at the release's path
		// no release number, no js.txt, but js has release files: every failure red, and said so
		{"js", "v0.0.0 (replaced by /src/js)", "js.txt", "names no release and there is no expectations/js.txt"},
	} {
		im, err := ports.ResolveIn(realRoot(t), c.column)
		if err != nil {
			t.Fatal(err)
		}
		x, err := loadExpectFiles(root, im, nil)
		if err != nil {
			t.Fatal(err)
		}
		ex, warning := x.choose(c.hello)
		if got := filepath.Base(ex.Path); got != c.file {
			t.Errorf("%s reporting %q: judged by %s, want %s", c.column, c.hello, got, c.file)
		}
		if c.warning == "" && warning != "" || !strings.Contains(warning, c.warning) {
			t.Errorf("%s reporting %q: warning %q, want one containing %q", c.column, c.hello, warning, c.warning)
		}
	}
}

// A file named for one release whose version: line names another is bad input, at its line.
func TestVersionedFileNamingAnotherReleaseIsBadInput(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "expectations", "go@0.16.0.txt"), "# written for\nversion: golang/v0.15.0\n")
	im, err := ports.ResolveIn(realRoot(t), "go")
	if err != nil {
		t.Fatal(err)
	}
	_, err = loadExpectFiles(root, im, nil)
	if err == nil || !strings.Contains(err.Error(), "go@0.16.0.txt:2: version: \"golang/v0.15.0\" is not the release the file is named for (0.16.0)") {
		t.Errorf("error %v; want go@0.16.0.txt:2 named", err)
	}
}

func TestVersionsCompareByTheirNumbers(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"0.9.0", "0.16.0", -1}, {"0.16.0", "0.16.0", 0}, {"0.16.0-3-gabc", "0.16.0", 1}, {"1.0", "0.99.9", 1}, {"0.16", "0.16.0", 0}} {
		if got := compareVersions(c.a, c.b); got != c.want {
			t.Errorf("compareVersions(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// An area's CheckStep error is bad input at the scenario's file:line, once per place.
func TestCheckedStepsNameFileAndLine(t *testing.T) {
	lib := kernel.Library{{Name: "x", CheckStep: func(_, text string) error {
		if strings.Contains(text, "broken") {
			return errors.New("fixture broken.json: bad")
		}
		return nil
	}}}
	sel := []Scenario{{File: "features/x/a.feature", Line: 7, Steps: []string{"a broken fixture", "fine", "a broken fixture"}}}
	err := checkedSteps(t.TempDir(), lib, sel)
	if err == nil || err.Error() != "features/x/a.feature:7: fixture broken.json: bad" {
		t.Errorf("checkedSteps: %v", err)
	}
}
