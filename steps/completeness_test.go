package steps

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/muthuishere/toolnexus-conformance/schema"
)

// Every area is whole: a folder steps/<area>/ in the registry, a README that names every
// catalogue ID its features tag, features of its own (or a README that says it has no
// catalogue ID: the calls area's shared outcome steps), and, for an area with slots, a
// protocol fragment declaring each of them and nothing it does not answer. Nothing here
// runs an adapter: an adapter's hello is held to the protocol by the run (SPEC.md §3).
func TestEveryAreaIsWhole(t *testing.T) {
	lib := Library()
	names := lib.Names()
	for _, dir := range subdirs(t, ".") {
		if dir != "common" && !slices.Contains(names, dir) {
			t.Errorf("steps/%s/ is not in steps/registry.go: an area nobody registers never runs", dir)
		}
	}
	for _, dir := range subdirs(t, "../features") {
		if !slices.Contains(names, dir) {
			t.Errorf("features/%s/ belongs to no area (steps/registry.go names %v)", dir, names)
		}
	}
	for _, a := range lib {
		readme, err := os.ReadFile(filepath.Join(a.Name, "README.md"))
		if err != nil {
			t.Errorf("area %s: no README: %v", a.Name, err)
			continue
		}
		tagged := taggedIDs(t, filepath.Join("..", "features", a.Name))
		if len(tagged) == 0 && !strings.Contains(string(readme), "No catalogue ID of its own") {
			t.Errorf("area %s: no feature tags a catalogue ID, and its README does not say it has none of its own", a.Name)
		}
		named := namedIDs(string(readme))
		for _, id := range tagged {
			if !named(id) {
				t.Errorf("area %s: its features tag %s, which steps/%s/README.md does not name", a.Name, id, a.Name)
			}
		}
		if len(a.Slots) == 0 && a.Protocol == nil {
			if !strings.Contains(string(readme), "Ops: none of its own") {
				t.Errorf("area %s has no protocol fragment, and its README does not say \"Ops: none of its own\"", a.Name)
			}
			continue
		}
		if a.Protocol == nil {
			t.Errorf("area %s answers slots %v but has no protocol fragment declaring them", a.Name, sortedKeys(a.Slots))
			continue
		}
		f, err := schema.ParseFragment(a.Name, a.Protocol)
		if err != nil {
			t.Fatal(err)
		}
		for name := range a.Slots {
			if _, ok := f.Slots[a.Name+"."+name]; !ok {
				t.Errorf("area %s answers the slot %s.%s, which its fragment does not declare", a.Name, a.Name, name)
			}
		}
		for slot := range f.Slots {
			if _, ok := a.Slots[strings.TrimPrefix(slot, a.Name+".")]; !ok {
				t.Errorf("area %s: its fragment declares the slot %s, which the area does not answer", a.Name, slot)
			}
		}
	}
}

func subdirs(t *testing.T, dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

var tagRe = regexp.MustCompile(`@([A-Z][0-9]*\.[0-9]+)\b`)

// taggedIDs are the catalogue IDs the feature files of dir tag, sorted.
func taggedIDs(t *testing.T, dir string) []string {
	files, _ := filepath.Glob(filepath.Join(dir, "*.feature"))
	seen := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range tagRe.FindAllStringSubmatch(string(b), -1) {
			seen[m[1]] = true
		}
	}
	return sortedKeys(seen)
}

// idRe is how a README names IDs: "C9.13", a range "C10.1-C10.7" or "C9.1-9.5", a group's
// every ID "G1.*", or a bare group "C1".
var idRe = regexp.MustCompile(`\b([A-Z][0-9]*)(?:\.([0-9]+|\*))?(?:-(?:[A-Z][0-9]*\.)?([0-9]+))?\b`)

// namedIDs says whether the README text names an ID.
func namedIDs(text string) func(id string) bool {
	type span struct {
		group  string
		lo, hi int // lo < 0: the whole group
	}
	var spans []span
	for _, m := range idRe.FindAllStringSubmatch(text, -1) {
		switch {
		case m[2] == "" || m[2] == "*":
			if m[2] == "*" || len(m[1]) > 1 { // a bare letter ("A", "I") is a word, not a group
				spans = append(spans, span{m[1], -1, 0})
			}
		default:
			lo, _ := strconv.Atoi(m[2])
			hi := lo
			if m[3] != "" {
				hi, _ = strconv.Atoi(m[3])
			}
			spans = append(spans, span{m[1], lo, hi})
		}
	}
	return func(id string) bool {
		group, num, _ := strings.Cut(id, ".")
		n, _ := strconv.Atoi(num)
		for _, s := range spans {
			if s.group == group && (s.lo < 0 || (s.lo <= n && n <= s.hi)) {
				return true
			}
		}
		return false
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
