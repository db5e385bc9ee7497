package ports

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/schema"
)

// ManifestName is each port's manifest file in its runners/ folder.
const ManifestName = "port.json"

// Manifest is one runners/<port>/port.json (schema/port.schema.json): what the harness knows
// about a port besides its prepare script and adapter.
type Manifest struct {
	Name            string     `json:"name"`
	Language        string     `json:"language"`
	Runtime         string     `json:"runtime,omitempty"`
	Order           *int       `json:"order,omitempty"`
	Override        string     `json:"override,omitempty"`
	Implementations []ImplSpec `json:"implementations"`
	Checkout        *Layout    `json:"checkout,omitempty"`
	Releases        *Releases  `json:"releases,omitempty"`
	Toolchain       Toolchain  `json:"toolchain"`
	Errors          string     `json:"errors,omitempty"`
	// Jobs, when set, is how many scenarios an implementation of this port runs at once
	// when it runs alone and --jobs is not given: an adapter that is a native binary starts
	// in milliseconds, and most scenarios wait on a clock (a Retry-After, a stall), not a
	// core. 0: the suite's default.
	Jobs int `json:"jobs,omitempty"`
	// File is the manifest's path relative to the harness root, for messages.
	File string `json:"-"`
}

// ErrorTable is the port's error table (SPEC.md §3), relative to its folder: the manifest's
// "errors", else errors.json.
func (m *Manifest) ErrorTable() string {
	if m.Errors != "" {
		return filepath.FromSlash(m.Errors)
	}
	return "errors.json"
}

// ImplSpec is one implementation a port's adapter serves.
type ImplSpec struct {
	Name          string `json:"name"`
	About         string `json:"about,omitempty"`
	Library       string `json:"library,omitempty"` // "port" (default) or "harness"
	Required      bool   `json:"required,omitempty"`
	Default       *bool  `json:"default,omitempty"`
	NeedsOverride string `json:"needsOverride,omitempty"`
}

// HarnessLibrary says the implementation runs a library the harness ships (the reference):
// never from a checkout, no releases.
func (s ImplSpec) HarnessLibrary() bool { return s.Library == "harness" }

// OnDefault says whether a run without --ports includes it.
func (s ImplSpec) OnDefault() bool { return s.Default == nil || *s.Default }

// Layout is where a toolnexus tree holds the port and how a build of it is made.
type Layout struct {
	Dir    string `json:"dir"`
	Marker string `json:"marker"`
	Copy   *struct {
		Skip []string `json:"skip,omitempty"`
	} `json:"copy,omitempty"`
	Build bool `json:"build,omitempty"`
}

// Releases is where <implementation>@<release> comes from.
type Releases struct {
	From     string `json:"from"` // "checkout" or "registry"
	Registry string `json:"registry,omitempty"`
	Package  string `json:"package,omitempty"`
	Env      string `json:"env,omitempty"`
}

// FromRegistry says a release is fetched by prepare (named in Env), not built from a checkout.
func (r *Releases) FromRegistry() bool { return r != nil && r.From == "registry" }

// Toolchain is what building the port and its CI job need.
type Toolchain struct {
	Tools []string `json:"tools,omitempty"`
	CI    []Setup  `json:"ci,omitempty"`
}

// Setup is one GitHub Actions setup step.
type Setup struct {
	Uses string            `json:"uses"`
	With map[string]string `json:"with,omitempty"`
}

// Set is every port manifest under a harness root, in column order.
type Set struct {
	Root  string
	Ports []*Manifest
}

// Load reads and validates every runners/*/port.json under root. A folder without a manifest
// is not a port; a manifest that breaks the schema, or names its port or an implementation
// like another, is an error naming its file.
func Load(root string) (*Set, error) {
	files, err := filepath.Glob(filepath.Join(root, "runners", "*", ManifestName))
	if err != nil {
		return nil, err
	}
	s := &Set{Root: root}
	var errs []string
	owner := map[string]string{} // implementation name, checkout dir -> the file claiming it
	claim := func(what, key, file string) {
		if prev, dup := owner[what+" "+key]; dup {
			errs = append(errs, fmt.Sprintf("%s: %s %q is also claimed by %s", file, what, key, prev))
			return
		}
		owner[what+" "+key] = file
	}
	for _, path := range files {
		rel, _ := filepath.Rel(root, path)
		m, err := readManifest(path)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", rel, err))
			continue
		}
		m.File = rel
		if dir := filepath.Base(filepath.Dir(path)); m.Name != dir {
			errs = append(errs, fmt.Sprintf("%s: name %q, but the folder is runners/%s", rel, m.Name, dir))
			continue
		}
		for _, im := range m.Implementations {
			claim("implementation", im.Name, rel)
			if im.NeedsOverride != "" && m.Override == "" {
				errs = append(errs, fmt.Sprintf("%s: implementation %q needsOverride, but the port names no override", rel, im.Name))
			}
		}
		if m.Checkout != nil {
			claim("checkout dir", m.Checkout.Dir, rel)
			if m.Override == "" {
				errs = append(errs, fmt.Sprintf("%s: a checkout layout needs an override variable to hand the build to prepare", rel))
			}
		}
		s.Ports = append(s.Ports, m)
	}
	if len(errs) > 0 {
		return nil, errors.New(strings.Join(errs, "\n"))
	}
	sort.SliceStable(s.Ports, func(i, j int) bool {
		a, b := s.Ports[i], s.Ports[j]
		switch {
		case a.Order != nil && b.Order != nil && *a.Order != *b.Order:
			return *a.Order < *b.Order
		case (a.Order == nil) != (b.Order == nil):
			return a.Order != nil
		}
		return a.Name < b.Name
	})
	return s, nil
}

func readManifest(path string) (*Manifest, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if err := schema.ValidatePort(b); err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// Port is the manifest of the named port, nil when there is none.
func (s *Set) Port(name string) *Manifest {
	for _, m := range s.Ports {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// Spec finds an implementation by name (no @release) and the port serving it.
func (s *Set) Spec(name string) (*Manifest, ImplSpec, bool) {
	for _, m := range s.Ports {
		for _, im := range m.Implementations {
			if im.Name == name {
				return m, im, true
			}
		}
	}
	return nil, ImplSpec{}, false
}

// Names is every implementation, in column order.
func (s *Set) Names() []string {
	var out []string
	for _, m := range s.Ports {
		for _, im := range m.Implementations {
			out = append(out, im.Name)
		}
	}
	return out
}

// Default is the implementations a run without --ports runs, in column order.
func (s *Set) Default() []string {
	var out []string
	for _, m := range s.Ports {
		for _, im := range m.Implementations {
			if im.OnDefault() {
				out = append(out, im.Name)
			}
		}
	}
	return out
}

// Rank is an implementation's column (<name>@<release> shares its implementation's);
// unknown names come last.
func (s *Set) Rank(impl string) int {
	name, _, _ := strings.Cut(impl, "@")
	names := s.Names()
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return len(names)
}
