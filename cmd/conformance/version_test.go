package main

import (
	"os"
	"runtime/debug"
	"strings"
	"testing"

	conformance "github.com/muthuishere/toolnexus-conformance"
)

// A test binary has no stamp; it still prints the release the source declares, never "devel".
func TestHarnessVersionIsTheDeclaredRelease(t *testing.T) {
	v := harnessVersion()
	if v != conformance.Version() && !strings.HasPrefix(v, conformance.Version()+"+") {
		t.Errorf("harness version %q does not start with the declared release %q", v, conformance.Version())
	}
}

// Every way of building prints the declared release with the commit it knows of, if any.
func TestVersionOfEveryBuild(t *testing.T) {
	settings := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i+1 < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	for _, c := range []struct {
		name, stamped string
		bi            *debug.BuildInfo
		want          string
	}{
		{"make build", "0e2adb4", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "v0.3.0+0e2adb4"},
		{"make build, dirty tree", "0e2adb4-dirty", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "v0.3.0+0e2adb4-dirty"},
		{"go build in a clone", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: settings("vcs.revision", "0e2adb4f00c1d2e3", "vcs.modified", "false")}, "v0.3.0+0e2adb4"},
		{"go build in a modified clone", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.3.1-0.20261202101010-0e2adb4f00c1+dirty"},
			Settings: settings("vcs.revision", "0e2adb4f00c1d2e3", "vcs.modified", "true")}, "v0.3.0+0e2adb4-dirty"},
		{"go install @main", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.3.1-0.20261202101010-0e2adb4f00c1"}}, "v0.3.0+0e2adb4"},
		{"go install @commit, no tag yet", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261202101010-0e2adb4f00c1"}}, "v0.3.0+0e2adb4"},
		{"go install @v0.3.0", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.3.0"}}, "v0.3.0"},
		{"no VCS stamp (-buildvcs=false)", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "v0.3.0"},
		{"no build info", "", nil, "v0.3.0"},
	} {
		if got := versionOf("v0.3.0", c.stamped, c.bi); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// The reference's hello version names the harness version this binary prints, so a report's
// reference column and its harnessVersion say the same.
func TestReferenceHelloNamesTheHarnessVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Go adapter")
	}
	var code int
	out := captured(t, &os.Stdout, func() {
		captured(t, &os.Stderr, func() { code = cmdInfo([]string{"--ports", referenceImpl}) })
	})
	if want := "reference (harness " + harnessVersion() + ")"; code != 0 || !strings.Contains(out, want) {
		t.Errorf("info --ports reference: exit %d, want %q in:\n%s", code, want, out)
	}
}
