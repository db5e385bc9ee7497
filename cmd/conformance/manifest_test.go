package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/muthuishere/toolnexus-conformance/internal/ports"
)

func harnessSet(t *testing.T) (string, *ports.Set) {
	t.Helper()
	root, set, err := ports.Harness()
	if err != nil {
		t.Fatal(err)
	}
	return root, set
}

// The matrix has one entry per default implementation, in column order, each with its port's
// setup steps; {tree} becomes the workflow's checkout path.
func TestCIMatrix(t *testing.T) {
	_, set := harnessSet(t)
	m, err := ciMatrix(set, "tn")
	if err != nil {
		t.Fatal(err)
	}
	var impls []string
	for _, e := range m["include"] {
		impls = append(impls, e["impl"].(string))
	}
	if !slices.Equal(impls, set.Default()) {
		t.Errorf("matrix implementations %v, want the default run %v", impls, set.Default())
	}
	js := m["include"][slices.Index(impls, "js")]
	if node, _ := js["setup-node"].(map[string]string); node["cache-dependency-path"] != "tn/js/package-lock.json" {
		t.Errorf("js entry %v: want setup-node with the lockfile under the tree", js)
	}
	if _, ok := m["include"][0]["setup-node"]; ok {
		t.Errorf("the reference got another port's toolchain: %v", m["include"][0])
	}
}

// Every setup step a manifest asks for has its step in the workflow, gated on its matrix key
// and passing each input the manifest gives: a port that needs a new action is told here.
func TestWorkflowSetsUpEveryToolchain(t *testing.T) {
	root, set := harnessSet(t)
	b, err := os.ReadFile(filepath.Join(root, ".github", "workflows", "conformance.yml"))
	if err != nil {
		t.Fatal(err)
	}
	wf := string(b)
	for _, m := range set.Ports {
		for _, s := range m.Toolchain.CI {
			key := setupKey(s.Uses)
			step := regexp.MustCompile(`(?m)^\s*- if: matrix\.` + regexp.QuoteMeta(key) + `\n\s*uses: ` + regexp.QuoteMeta(s.Uses) + `\n`)
			if !step.MatchString(wf) {
				t.Errorf("%s: conformance.yml has no step `- if: matrix.%s` / `uses: %s`", m.File, key, s.Uses)
				continue
			}
			for in := range s.With {
				if !strings.Contains(wf, in+": ${{ matrix."+key+"."+in+" }}") {
					t.Errorf("%s: conformance.yml's %s step does not pass %s", m.File, key, in)
				}
			}
		}
	}
	if strings.Contains(wf, "matrix.impl ==") {
		t.Error("conformance.yml names an implementation; the matrix (ci-matrix) should decide")
	}
}

// TestScratchPortNeedsOnlyItsFolder adds one folder, runners/scratch (port.json, prepare and a
// bash adapter), to a copy of the harness root: info, the default run and the CI matrix all
// show it, and no other file changes.
func TestScratchPortNeedsOnlyItsFolder(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Go adapter for the reference")
	}
	real, _ := harnessSet(t)
	root := t.TempDir()
	entries, err := os.ReadDir(real)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "runners" && e.Name() != ".cache" {
			if err := os.Symlink(filepath.Join(real, e.Name()), filepath.Join(root, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.MkdirAll(filepath.Join(root, "runners"), 0o755); err != nil {
		t.Fatal(err)
	}
	runners, _ := os.ReadDir(filepath.Join(real, "runners"))
	for _, p := range runners {
		if err := os.Symlink(filepath.Join(real, "runners", p.Name()), filepath.Join(root, "runners", p.Name())); err != nil {
			t.Fatal(err)
		}
	}
	scratch := map[string]string{
		"port.json": `{"name": "scratch", "language": "Bash", "order": 9, "implementations": [{"name": "scratch"}],
			"toolchain": {"ci": [{"uses": "actions/setup-python@v5", "with": {"python-version": "3.13"}}]}}`,
		"prepare": "#!/usr/bin/env bash\necho \"[\\\"bash\\\", \\\"$(cd \"$(dirname \"$0\")\" && pwd)/adapter\\\"]\"\n",
		"adapter": `#!/usr/bin/env bash
# Says hello, answers every op unsupported, and ends on shutdown.
while IFS= read -r line; do
	id="$(sed -E 's/.*"id":([0-9]+).*/\1/' <<<"$line")"
	case "$line" in
	*'"op":"hello"'*) echo "{\"id\":$id,\"ok\":true,\"result\":{\"port\":\"scratch\",\"library\":\"none\",\"version\":\"0.0.1\",\"runtime\":\"bash\",\"ops\":[]},\"warnings\":[]}" ;;
	*'"op":"shutdown"'*) echo "{\"id\":$id,\"ok\":true,\"result\":{},\"warnings\":[]}"; exit 0 ;;
	*) echo "{\"id\":$id,\"ok\":false,\"error\":{\"kind\":\"unsupported\",\"message\":\"scratch supports nothing\"},\"warnings\":[]}" ;;
	esac
done
`,
	}
	for name, body := range scratch {
		p := filepath.Join(root, "runners", "scratch", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The real ports say "not present" at once, without installing anything.
	for _, v := range []string{"TOOLNEXUS_GO", "TOOLNEXUS_ROOT"} {
		t.Setenv(v, "")
	}
	for _, v := range []string{"TOOLNEXUS_PYTHON", "TOOLNEXUS_JS", "TOOLNEXUS_JAVA", "TOOLNEXUS_CSHARP"} {
		t.Setenv(v, filepath.Join(root, "no-such-port"))
	}
	cache := t.TempDir()
	common := []string{"--root", root, "--cache", cache}

	info := captured(t, &os.Stdout, func() { cmdInfo(common) })
	if !regexp.MustCompile(`(?m)^scratch +present: port scratch, none 0\.0\.1, runtime bash`).MatchString(info) {
		t.Errorf("info does not show the scratch port as present:\n%s", info)
	}

	var code int
	var out string
	progress := captured(t, &os.Stderr, func() {
		out = captured(t, &os.Stdout, func() {
			code = cmdRun(append(common, "--quiet", "--format", "json", "--tags", "@G5.1"), false)
		})
	})
	var results []struct {
		Port    string `json:"port"`
		Present bool   `json:"present"`
	}
	if err := json.Unmarshal([]byte(out), &results); err != nil {
		t.Fatalf("run (exit %d): %v\n%s\n%s", code, err, out, progress)
	}
	var names []string
	for _, p := range results {
		names = append(names, p.Port)
		if p.Port == "scratch" && !p.Present {
			t.Error("the scratch port did not run")
		}
	}
	if want := []string{"reference", "go", "python", "js", "java", "csharp", "scratch"}; !slices.Equal(names, want) {
		t.Errorf("the default run's columns %v, want %v\n%s", names, want, progress)
	}

	matrix := captured(t, &os.Stdout, func() { cmdCIMatrix(common) })
	if !strings.Contains(matrix, `{"impl":"scratch","port":"scratch","setup-python":{"python-version":"3.13"}}`) {
		t.Errorf("the CI matrix lacks the scratch port:\n%s", matrix)
	}
}
