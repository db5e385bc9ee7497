package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// buildVersion is set by `make build` to `git describe` of the clone (-ldflags -X), since
// the build info's VCS stamp is off where GOFLAGS says -buildvcs=false.
var buildVersion string

// harnessVersion is this binary's version: the module version when it was installed with
// `go install …@<version>`, else what `make build` stamped, else the commit Go's build info
// recorded, else "devel".
func harnessVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	if buildVersion != "" {
		return buildVersion
	}
	if !ok {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return "devel+" + rev
}

func cmdVersion(args []string) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
		fmt.Println("usage: conformance version   (the harness version: module version, or the commit built)")
		return 0
	}
	if len(args) > 0 {
		return usageErr(fmt.Errorf("version takes no arguments, got %q", args[0]))
	}
	fmt.Printf("conformance %s (%s %s/%s)\n", harnessVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return 0
}
