package conformance

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// actionStub stands in for the conformance CLI: it logs how it was called, and a run exits 1
// (red) so the test sees the run's exit code handed on.
const actionStub = `#!/bin/sh
echo "conformance $*" >>"$STUB_LOG"
[ "$1" = run ] && exit 1
exit 0
`

// The action's step (action/run.sh), with make, go and the CLI faked: with no version it
// builds the action's own files whatever ref it is used at (go install knows only what the
// module proxy serves), naming the commit or branch it was used at; a named version is
// installed, and one that cannot be is exit code 2, with no other CLI run in its place.
func TestActionBuildsItsOwnRefUnlessAVersionIsNamed(t *testing.T) {
	script, err := filepath.Abs(filepath.Join("action", "run.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.ReadFile(script); err != nil { // read here so go test's cache sees it change
		t.Fatal(err)
	}
	const sha = "0e2adb4f00c1d2e3a4b5c6d7e8f90a1b2c3d4e5f"
	for _, c := range []struct {
		name, version, ref string
		want, not          []string // lines the log must hold, and must not
		code               string
	}{
		{name: "a branch", ref: "main", want: []string{"make build COMMIT=main", "conformance run --toolnexus"}, not: []string{"go install"}, code: "1"},
		{name: "a commit", ref: sha, want: []string{"make build COMMIT=0e2adb4"}, not: []string{"go install"}, code: "1"},
		{name: "the release's tag", ref: "v0.3.0", want: []string{"make build COMMIT=\n"}, not: []string{"go install"}, code: "1"},
		{name: "a path (uses: ./)", want: []string{"make build COMMIT=\n"}, not: []string{"go install"}, code: "1"},
		{name: "local", version: "local", ref: "main", want: []string{"make build COMMIT=main"}, not: []string{"go install"}, code: "1"},
		{name: "a named version", version: "v0.3.0", ref: "main",
			want: []string{"go install github.com/muthuishere/toolnexus-conformance/cmd/conformance@v0.3.0", "conformance run --toolnexus"},
			not:  []string{"make build"}, code: "1"},
		{name: "a version that does not exist", version: "v9.9.9", ref: "main",
			want: []string{"go install github.com/muthuishere/toolnexus-conformance/cmd/conformance@v9.9.9"},
			not:  []string{"make build", "conformance run", "conformance version"}, code: "2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			actionPath, fakeBin, temp := filepath.Join(dir, "action"), filepath.Join(dir, "path"), filepath.Join(dir, "temp")
			log, output := filepath.Join(dir, "log"), filepath.Join(dir, "output")
			for _, d := range []string{actionPath, fakeBin, temp} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			write := func(p, s string, mode os.FileMode) {
				if err := os.WriteFile(p, []byte(s), mode); err != nil {
					t.Fatal(err)
				}
			}
			write(filepath.Join(actionPath, "VERSION"), "v0.3.0\n", 0o644)
			write(filepath.Join(actionPath, "stub"), actionStub, 0o755)
			write(filepath.Join(actionPath, "Makefile"), "build:\n\t@printf 'make build COMMIT=%s\\n' '$(COMMIT)' >>\"$$STUB_LOG\"\n"+
				"\t@mkdir -p bin && cp stub bin/conformance && cp stub bin/conformance-fake-mcp-stdio\n", 0o644)
			// go install: v9.9.9 is no release; any other version installs the stub.
			write(filepath.Join(fakeBin, "go"), "#!/bin/sh\necho \"go $*\" >>\"$STUB_LOG\"\n"+
				"case \"$*\" in *@v9.9.9) exit 1;; esac\ncp \""+filepath.Join(actionPath, "stub")+"\" \"$GOBIN/$(basename \"${2%@*}\")\"\n", 0o755)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "bash", script)
			cmd.Env = append(os.Environ(), "PATH="+fakeBin+string(os.PathListSeparator)+os.Getenv("PATH"),
				"STUB_LOG="+log, "GITHUB_OUTPUT="+output, "RUNNER_TEMP="+temp, "GITHUB_ACTION_PATH="+actionPath,
				"CONFORMANCE_VERSION="+c.version, "CONFORMANCE_ACTION_REF="+c.ref, "CONFORMANCE_TREE=.",
				"CONFORMANCE_PORTS=", "CONFORMANCE_TAGS=", "CONFORMANCE_ARGS=", "CONFORMANCE_REPORTS="+filepath.Join(dir, "reports"))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("run.sh: %v\n%s", err, out)
			}
			logged, _ := os.ReadFile(log)
			outputs, _ := os.ReadFile(output)
			for _, w := range c.want {
				if !strings.Contains(string(logged), w) {
					t.Errorf("want %q in the log:\n%s\nstep output:\n%s", w, logged, out)
				}
			}
			for _, n := range c.not {
				if strings.Contains(string(logged), n) {
					t.Errorf("want no %q in the log:\n%s", n, logged)
				}
			}
			if got := strings.TrimSpace(string(outputs)); got != "exit-code="+c.code {
				t.Errorf("outputs %q, want exit-code=%s\n%s", got, c.code, out)
			}
		})
	}
}
