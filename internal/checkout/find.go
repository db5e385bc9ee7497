// Package checkout turns a toolnexus tree (`--toolnexus <checkout>`) into per-implementation
// environment for the prepare scripts: it finds the ports, builds each with its own
// ecosystem's tools into the cache (never into the checkout) and says, per port, what it set,
// what is missing or what broke. The prepare scripts stay the adapter contract: this package
// only hands them the TOOLNEXUS_* variables a maintainer would otherwise set by hand.
package checkout

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// Layout is where each port with an adapter here lives in a toolnexus tree, and the file that
// marks it.
var Layout = []struct{ Port, Dir, Marker string }{
	{"go", "golang", "go.mod"},
	{"python", "python", "pyproject.toml"},
	{"js", "js", "package.json"},
	{"java", "java", "build.gradle"},
	{"csharp", "csharp", "src/Toolnexus/Toolnexus.csproj"},
}

// Var is each port's override variable (the prepare scripts read it).
var Var = map[string]string{"go": "TOOLNEXUS_GO", "python": "TOOLNEXUS_PYTHON", "js": "TOOLNEXUS_JS",
	"java": "TOOLNEXUS_JAVA", "csharp": "TOOLNEXUS_CSHARP"}

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

// Find reads a toolnexus tree. It is an error when root holds none of the known ports.
func Find(root string) (*Tree, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("--toolnexus %s: not a directory", root)
	}
	t := &Tree{Root: abs, Ports: map[string]string{}}
	known := map[string]bool{}
	for _, l := range Layout {
		known[l.Dir] = true
		if exists(filepath.Join(abs, l.Dir, l.Marker)) {
			t.Ports[l.Port] = filepath.Join(abs, l.Dir)
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
		return nil, fmt.Errorf("--toolnexus %s: no toolnexus port found (looked for golang/go.mod, python/pyproject.toml, js/package.json, java/build.gradle, csharp/)", root)
	}
	return t, nil
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }
