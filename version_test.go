package conformance

import (
	"os"
	"regexp"
	"testing"
)

// releaseHeading is a CHANGELOG.md heading of a published release ("## v0.3.0 (2026-12-02)");
// "## Unreleased" is not one.
var releaseHeading = regexp.MustCompile(`(?m)^## (v\d+\.\d+\.\d+\S*)`)

// VERSION names the newest release CHANGELOG.md describes: the tag a maintainer pushes is
// the version every build prints, and its notes are the ones at the top.
func TestVersionIsTheChangelogsNewestRelease(t *testing.T) {
	b, err := os.ReadFile("CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	m := releaseHeading.FindSubmatch(b)
	if m == nil {
		t.Fatal("CHANGELOG.md has no release heading (## vX.Y.Z)")
	}
	if v := Version(); v != string(m[1]) {
		t.Errorf("VERSION says %q, CHANGELOG.md's newest release heading says %q", v, m[1])
	}
	if !regexp.MustCompile(`^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`).MatchString(Version()) {
		t.Errorf("VERSION %q is not a tag of the form vMAJOR.MINOR.PATCH", Version())
	}
}
