package ports

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeManifests(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, "runners", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// The harness's own manifests: every port once, in the column order reports have always used.
func TestHarnessManifests(t *testing.T) {
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	set, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{Reference, "go", "python", "js", "java", "csharp"}
	if got := set.Names(); !slices.Equal(got, want) {
		t.Errorf("implementations %v, want %v", got, want)
	}
	if got := set.Default(); !slices.Equal(got, want) {
		t.Errorf("default run %v, want %v", got, want)
	}
	for _, m := range set.Ports {
		if m.Checkout == nil || m.Override == "" || len(m.Toolchain.Tools) == 0 {
			t.Errorf("%s: a port of the toolnexus tree needs a checkout layout, an override and its tools", m.File)
		}
		if _, err := os.Stat(filepath.Join(root, "runners", m.Name, "prepare")); err != nil {
			t.Errorf("%s: no prepare beside it", m.File)
		}
	}
	if m, spec, _ := set.Spec(Reference); m.Name != "go" || !spec.HarnessLibrary() || !spec.Required {
		t.Errorf("the reference must be runners/go's required harness library, got %s %+v", m.Name, spec)
	}
}

// A bad manifest is bad input that names its file and, for a schema violation, the place in it.
func TestManifestErrorsNameTheFile(t *testing.T) {
	ok := `{"name": "%s", "language": "L", "implementations": [{"name": "%s"}]}`
	cases := map[string]struct {
		files map[string]string
		want  []string
	}{
		"schema": {map[string]string{"a/port.json": `{"name": "a", "implementations": [{"name": "a", "colour": "red"}]}`},
			[]string{"runners/a/port.json", "language", "/implementations/0", "colour"}},
		"not json": {map[string]string{"a/port.json": `{"name": `}, []string{"runners/a/port.json", "not JSON"}},
		"folder":   {map[string]string{"a/port.json": strings.ReplaceAll(ok, "%s", "b")}, []string{"runners/a/port.json", `name "b"`}},
		"twice": {map[string]string{"a/port.json": `{"name": "a", "language": "L", "implementations": [{"name": "x"}]}`,
			"b/port.json": `{"name": "b", "language": "L", "implementations": [{"name": "x"}]}`}, []string{"runners/b/port.json", `implementation "x"`, "runners/a/port.json"}},
		"override": {map[string]string{"a/port.json": `{"name": "a", "language": "L", "implementations": [{"name": "a", "needsOverride": "why"}]}`},
			[]string{"runners/a/port.json", "needsOverride"}},
		"registry": {map[string]string{"a/port.json": `{"name": "a", "language": "L", "implementations": [{"name": "a"}], "releases": {"from": "registry"}}`},
			[]string{"runners/a/port.json", "/releases", "env"}},
	}
	for name, c := range cases {
		_, err := Load(writeManifests(t, c.files))
		for _, w := range c.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %v, want it to name %q", name, err, w)
			}
		}
	}
}

// Ports with an order come first, lowest first; the rest follow by name. A folder with a
// prepare and no manifest is not a port, and naming it says what it lacks.
func TestOrderAndUnknown(t *testing.T) {
	m := func(name, order string) string {
		return `{"name": "` + name + `", "language": "L", ` + order + `"implementations": [{"name": "` + name + `"}, {"name": "` + name + `-b", "default": false}]}`
	}
	root := writeManifests(t, map[string]string{"zeta/port.json": m("zeta", `"order": 1, `), "beta/port.json": m("beta", ""),
		"alpha/port.json": m("alpha", ""), "omega/port.json": m("omega", `"order": 0, `), "bare/prepare": "exit 3\n"})
	set, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := set.Default(), []string{"omega", "zeta", "alpha", "beta"}; !slices.Equal(got, want) {
		t.Errorf("default %v, want %v", got, want)
	}
	if set.Rank("zeta-b@1.0") != 3 || set.Rank("nope") != 8 {
		t.Errorf("rank of zeta-b@1.0 %d, of nope %d", set.Rank("zeta-b@1.0"), set.Rank("nope"))
	}
	if _, err := set.Resolve("bare"); err == nil || !strings.Contains(err.Error(), "runners/bare has a prepare but no port.json") {
		t.Errorf("bare: %v", err)
	}
}
