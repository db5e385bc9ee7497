package ports

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Reference is the implementation name of our Go reference library (runners/go built against
// reference/). It always runs; its absence is never silent.
const Reference = "reference"

// All is every implementation the suite knows, in report order. `go` is the published Go port
// (runners/go built against TOOLNEXUS_GO); the others are named after their runners/ folder.
var All = []string{Reference, "go", "python", "js", "java", "csharp"}

// Implementation is one result column: a port's adapter (runners/<Port>) run against one build
// of the library. Name is what reports and expectations/<Name>.txt use.
type Implementation struct {
	Name string
	// Port is the runners/ folder whose prepare and adapter serve this implementation.
	Port string
	// Release is the library release for a "<port>@<release>" name; empty otherwise.
	Release string
	// Env is set for prepare and the adapter, before the run's own extra environment.
	Env []string
	// Absent, when set, is why the implementation cannot run here without even preparing it.
	Absent string
}

var releaseRe = regexp.MustCompile(`^[0-9A-Za-z][0-9A-Za-z.+-]*$`)

// Resolve turns an implementation name into what runs it.
func Resolve(name string) (Implementation, error) { return ResolveIn("", name) }

// ResolveIn is Resolve for the harness at root, where a port the harness does not list is
// still known when root/runners/<port>/prepare exists: adding a port adds no Go code.
func ResolveIn(root, name string) (Implementation, error) {
	port, release, hasRelease := strings.Cut(name, "@")
	im := Implementation{Name: name, Port: port, Release: release}
	switch {
	case hasRelease && !releaseRe.MatchString(release):
		return im, fmt.Errorf("implementation %q: release %q is not a version", name, release)
	case port == Reference && hasRelease:
		return im, fmt.Errorf("implementation %q: the reference has no releases", name)
	case port == Reference:
		im.Port = "go"
		// An inherited TOOLNEXUS_GO must not turn the reference into the published port.
		im.Env = []string{"TOOLNEXUS_GO="}
	case port == "go" && !hasRelease:
		if os.Getenv("TOOLNEXUS_GO") == "" {
			im.Absent = "TOOLNEXUS_GO is not set (a checkout's golang/ folder); the reference runs as `reference`"
		}
	case slices.Contains(All, port) && port != Reference:
	case root != "" && validPort(port) && fileExists(filepath.Join(root, "runners", port, "prepare")):
	default:
		return im, fmt.Errorf("unknown implementation %q (known: %s, or <port>@<release>)", name, strings.Join(All, ", "))
	}
	if hasRelease {
		// prepare scripts that know releases read this; one that does not says not present.
		im.Env = append(im.Env, "CONFORMANCE_RELEASE="+release)
	}
	return im, nil
}

var portRe = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)

func validPort(p string) bool { return portRe.MatchString(p) }
