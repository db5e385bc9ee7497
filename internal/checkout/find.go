// Package checkout turns a toolnexus tree (`--toolnexus <checkout>`) into per-implementation
// environment for the prepare scripts: it finds the ports where their manifests
// (runners/<port>/port.json) say a tree holds them, copies each into the cache (never
// writing into the checkout) and has the port's own prepare build it (`--build-checkout`),
// saying, per implementation, what it set, what is missing or what broke. It knows no port by
// name: the manifests and the prepare scripts hold every port's recipe.
package checkout

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/ports"
)

// otherManifests mark a port in an ecosystem the harness has no adapter for.
var otherManifests = []string{"deps.edn", "mix.exs", "Cargo.toml", "Package.swift", "composer.json",
	"build.sbt", "pubspec.yaml", "Gemfile", "build.zig", "project.clj", "rebar.config", "stack.yaml"}

// Tree is a toolnexus checkout as this harness sees it.
type Tree struct {
	Root string
	// Ports maps a port with an adapter here to its folder in the tree.
	Ports map[string]string
	// Unadapted are folders holding a port the harness has no adapter for ("clojure (deps.edn)").
	Unadapted []string
}

// Find reads a toolnexus tree with the layouts the manifests give. It is an error when root
// holds none of those ports.
func Find(root string, set *ports.Set) (*Tree, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("--toolnexus %s: not a directory", root)
	}
	t := &Tree{Root: abs, Ports: map[string]string{}}
	known := map[string]bool{}
	var looked []string
	for _, m := range set.Ports {
		if m.Checkout == nil {
			continue
		}
		l := m.Checkout
		known[l.Dir] = true
		looked = append(looked, l.Dir+"/"+l.Marker)
		if exists(filepath.Join(abs, l.Dir, filepath.FromSlash(l.Marker))) {
			t.Ports[m.Name] = filepath.Join(abs, l.Dir)
		}
	}
	entries, _ := os.ReadDir(abs)
	for _, e := range entries {
		if !e.IsDir() || known[e.Name()] {
			continue
		}
		for _, m := range otherManifests {
			if exists(filepath.Join(abs, e.Name(), m)) {
				t.Unadapted = append(t.Unadapted, fmt.Sprintf("%s (%s)", e.Name(), m))
				break
			}
		}
	}
	sort.Strings(t.Unadapted)
	if len(t.Ports) == 0 {
		return nil, fmt.Errorf("--toolnexus %s: no toolnexus port found (looked for %s)", root, strings.Join(looked, ", "))
	}
	return t, nil
}

// dirs are the tree folders the manifests name, for extracting a tree at a git ref.
func dirs(set *ports.Set) map[string]bool {
	out := map[string]bool{}
	for _, m := range set.Ports {
		if m.Checkout != nil {
			out[m.Checkout.Dir] = true
		}
	}
	return out
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }
