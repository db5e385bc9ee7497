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
	root := scratchRoot(t)
	scratch := map[string]string{
		"port.json": `{"name": "scratch", "language": "Bash", "order": 9, "implementations": [{"name": "scratch"}],
			"toolchain": {"ci": [{"uses": "actions/setup-python@v5", "with": {"python-version": "3.13"}}]}}`,
		"prepare": "#!/usr/bin/env bash\necho \"[\\\"bash\\\", \\\"$(cd \"$(dirname \"$0\")\" && pwd)/adapter\\\"]\"\n",
		"adapter": `#!/usr/bin/env bash
# Says hello, answers every op unsupported, and ends on shutdown.
while IFS= read -r line; do
	id="$(sed -E 's/.*"id":([0-9]+).*/\1/' <<<"$line")"
	case "$line" in
	*'"op":"hello"'*) echo "{\"id\":$id,\"ok\":true,\"result\":{\"port\":\"scratch\",\"library\":\"none\",\"version\":\"0.0.1\",\"runtime\":\"bash\",\"ops\":[],\"slots\":[]},\"warnings\":[]}" ;;
	*'"op":"shutdown"'*) echo "{\"id\":$id,\"ok\":true,\"result\":{},\"warnings\":[]}"; exit 0 ;;
	*) echo "{\"id\":$id,\"ok\":false,\"error\":{\"kind\":\"unsupported\",\"message\":\"scratch supports nothing\"},\"warnings\":[]}" ;;
	esac
done
`,
	}
	addPortFolder(t, root, "scratch", scratch)
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
	var doc struct {
		Ports []struct {
			Port    string `json:"port"`
			Present bool   `json:"present"`
		} `json:"ports"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("run (exit %d): %v\n%s\n%s", code, err, out, progress)
	}
	var names []string
	for _, p := range doc.Ports {
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

// scratchRoot is a harness root whose files are the real ones (symlinked) and whose runners/
// folder is a real folder, so a test can add a port to it.
func scratchRoot(t *testing.T) string {
	t.Helper()
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
	return root
}

// addPortFolder writes runners/<port>/ with the given files (all executable).
func addPortFolder(t *testing.T, root, port string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, "runners", port, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// README "Adding a port": one folder is the whole of a port. A port folder whose adapter
// relays the reference (the Go adapter on our reference library) and whose facts and error
// table are the Go port's must see no red cell on the whole suite: nothing about a port is
// kept anywhere but in its folder.
func TestAddedPortFolderRelayingTheReferenceIsGreen(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole suite on the Go adapter")
	}
	root := scratchRoot(t)
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(root, "runners", "go", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	addPortFolder(t, root, "relay", map[string]string{
		"port.json": `{"name": "relay", "language": "Go", "order": 9, "implementations": [{"name": "relay"}],
			"toolchain": {"tools": ["go"]}}`,
		// The Go port's own prepare without TOOLNEXUS_GO builds the adapter on our reference.
		"prepare":     "#!/usr/bin/env bash\nunset TOOLNEXUS_GO\nexec \"$(dirname \"$0\")/../go/prepare\" \"$@\"\n",
		"errors.json": read("errors.json"),
		"facts.json":  read("facts.json"),
	})
	t.Setenv("TOOLNEXUS_GO", "")
	t.Setenv("TOOLNEXUS_ROOT", "")
	reports := t.TempDir()
	var code int
	progress := captured(t, &os.Stderr, func() {
		captured(t, &os.Stdout, func() {
			code = cmdRun([]string{"--root", root, "--cache", filepath.Join(harnessRoot(t), ".cache"), "--quiet",
				"--ports", "relay", "--report-dir", reports}, false)
		})
	})
	b, err := os.ReadFile(filepath.Join(reports, "results.json"))
	if err != nil {
		t.Fatalf("run exited %d with no results: %v\n%s", code, err, progress)
	}
	var doc struct {
		Ports []struct {
			Port      string `json:"port"`
			Present   bool   `json:"present"`
			Scenarios []struct {
				ID, Row, Status, Verdict string
			} `json:"scenarios"`
		} `json:"ports"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, p := range doc.Ports {
		if p.Port != "relay" {
			continue
		}
		if !p.Present {
			t.Fatalf("the relay port did not run:\n%s", progress)
		}
		for _, s := range p.Scenarios {
			ran++
			switch s.Verdict {
			// inconclusive is not red: a stall a loaded machine kept from being reached (the
			// run still exits 0); every red verdict fails the test.
			case "pass", "advice", "unsupported", "inconclusive":
			default:
				t.Errorf("%s [%s]: %s (%s)", s.ID, s.Row, s.Verdict, s.Status)
			}
		}
	}
	if ran < 300 || code != 0 {
		t.Errorf("the relay port ran %d scenarios, exit %d; want the whole suite, exit 0\n%s", ran, code, progress)
	}
}

// harnessRoot is the harness root the scratch roots link to.
func harnessRoot(t *testing.T) string {
	t.Helper()
	r, _ := harnessSet(t)
	return r
}
