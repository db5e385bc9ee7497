package main

import (
	"fmt"
	"regexp"
	"runtime"
	"runtime/debug"

	conformance "github.com/muthuishere/toolnexus-conformance"
)

// buildCommit is the commit `make build` built, "-dirty" appended for a modified tree
// (-ldflags -X): the build info's VCS stamp is off where GOFLAGS says -buildvcs=false.
var buildCommit string

// harnessVersion is this binary's version: the release the source declares (VERSION), with
// the commit it was built from when one is known ("v0.3.0+0e2adb4", "v0.3.0+0e2adb4-dirty").
// Reports carry it, and the reference's hello version names it.
func harnessVersion() string {
	bi, _ := debug.ReadBuildInfo()
	return versionOf(conformance.Version(), buildCommit, bi)
}

// versionOf is release+commit. The commit is the one make build stamped, else the one Go's
// build info recorded (a build in a clone: vcs.revision and vcs.modified), else the one a
// pseudo-version names (go install …@main or @<commit>); with none, the release alone (go
// install …@v0.3.0 from the module proxy, which records no commit).
func versionOf(release, stamped string, bi *debug.BuildInfo) string {
	commit := stamped
	if commit == "" && bi != nil {
		commit = vcsCommit(bi.Settings)
		if commit == "" {
			commit = pseudoCommit(bi.Main.Version)
		}
	}
	if commit == "" {
		return release
	}
	return release + "+" + commit
}

// shortCommit is how many hex digits of a commit a version shows, as git's short form does.
const shortCommit = 7

func vcsCommit(settings []debug.BuildSetting) string {
	rev, dirty := "", false
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return ""
	}
	rev = rev[:min(len(rev), shortCommit)]
	if dirty {
		rev += "-dirty"
	}
	return rev
}

// pseudoVersion is a Go pseudo-version's tail: a UTC timestamp and 12 hex digits of the
// commit, then "+dirty" when Go stamped it from a modified clone.
var pseudoVersion = regexp.MustCompile(`(?:^|[.-])\d{14}-([0-9a-f]{12})(\+dirty)?$`)

func pseudoCommit(v string) string {
	m := pseudoVersion.FindStringSubmatch(v)
	if m == nil {
		return ""
	}
	c := m[1][:shortCommit]
	if m[2] != "" {
		c += "-dirty"
	}
	return c
}

func cmdVersion(args []string) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
		fmt.Println("usage: conformance version   (the harness release this source declares, + the commit built when known)")
		return 0
	}
	if len(args) > 0 {
		return usageErr(fmt.Errorf("version takes no arguments, got %q", args[0]))
	}
	fmt.Printf("conformance %s (%s %s/%s)\n", harnessVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return 0
}

// harnessVersionEnv hands the harness version to the prepare scripts: the Go one names it in
// the reference's hello version (an installed harness has no clone to ask git).
const harnessVersionEnv = "CONFORMANCE_HARNESS_VERSION"
