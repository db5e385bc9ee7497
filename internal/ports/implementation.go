package ports

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Reference is the golden implementation's name: golden records from it, diff and mutants
// compare with it. runners/go/port.json declares it (a harness library, always required).
const Reference = "reference"

// Implementation is one result column: a port's adapter (runners/<Port>) run against one build
// of the library. Name is what reports and expectations/<Name>.txt use.
type Implementation struct {
	Name string
	// Port is the runners/ folder whose prepare and adapter serve this implementation.
	Port string
	// Release is the library release for a "<name>@<release>" name; empty otherwise.
	Release string
	// Env is set for prepare and the adapter, before the run's own extra environment.
	Env []string
	// Absent, when set, is why the implementation cannot run here without even preparing it.
	Absent string
	// Required: the manifest makes it required on every run, named or not.
	Required bool
	// Manifest is the port's port.json; Spec the implementation's entry in it.
	Manifest *Manifest
	Spec     ImplSpec
}

var releaseRe = regexp.MustCompile(`^[0-9A-Za-z][0-9A-Za-z.+-]*$`)

// ResolveIn loads the manifests under root and resolves name there (Set.Resolve).
func ResolveIn(root, name string) (Implementation, error) {
	s, err := Load(root)
	if err != nil {
		return Implementation{Name: name}, err
	}
	return s.Resolve(name)
}

// Resolve turns an implementation name, or "<name>@<release>", into what runs it.
func (s *Set) Resolve(name string) (Implementation, error) {
	base, release, hasRelease := strings.Cut(name, "@")
	im := Implementation{Name: name, Port: base, Release: release}
	m, spec, ok := s.Spec(base)
	if !ok {
		return im, s.unknown(name, base)
	}
	im.Port, im.Manifest, im.Spec, im.Required = m.Name, m, spec, spec.Required
	switch {
	case hasRelease && !releaseRe.MatchString(release):
		return im, fmt.Errorf("implementation %q: release %q is not a version", name, release)
	case hasRelease && spec.HarnessLibrary():
		return im, fmt.Errorf("implementation %q: %s runs the harness's own library, which has no releases", name, base)
	}
	if spec.HarnessLibrary() && m.Override != "" {
		// An inherited override must not turn the harness's library into the published port.
		im.Env = append(im.Env, m.Override+"=")
	}
	if spec.NeedsOverride != "" && !hasRelease && os.Getenv(m.Override) == "" {
		im.Absent = spec.NeedsOverride
	}
	if hasRelease {
		// prepare scripts that know releases read this; one that does not says not present.
		im.Env = append(im.Env, "CONFORMANCE_RELEASE="+release)
	}
	return im, nil
}

// unknown says what names are known, and points at a folder that lacks only its manifest.
func (s *Set) unknown(name, base string) error {
	hint := ""
	if portRe.MatchString(base) && fileExists(filepath.Join(s.Root, "runners", base, "prepare")) {
		hint = fmt.Sprintf("; runners/%s has a prepare but no %s", base, ManifestName)
	}
	return fmt.Errorf("unknown implementation %q (known: %s, or <name>@<release>)%s", name, strings.Join(s.Names(), ", "), hint)
}

var portRe = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)
