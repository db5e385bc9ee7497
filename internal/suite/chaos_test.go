package suite

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/muthuishere/toolnexus-conformance/steps"

	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/internal/chaos"
	"github.com/muthuishere/toolnexus-conformance/internal/ports"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
	"github.com/muthuishere/toolnexus-conformance/schema"
)

// This test binary also plays the chaos adapter (init runs before TestMain).
func init() {
	if os.Getenv(chaos.EnvMode) != "" {
		chaos.Main()
		os.Exit(0)
	}
}

// chaosRoot is a copy of the harness root (symlinks) whose runners/ holds the reference's
// runner and one "chaos-<mode>" implementation per mode, each prepared to this binary.
func chaosRoot(t testing.TB, root string, modes ...string) string {
	t.Helper()
	dir := t.TempDir()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "runners" && e.Name() != ".cache" {
			if err := os.Symlink(filepath.Join(root, e.Name()), filepath.Join(dir, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "runners"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "runners", "go"), filepath.Join(dir, "runners", "go")); err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	proto, err := schema.LoadTree(root)
	if err != nil {
		t.Fatal(err)
	}
	serves, _ := json.Marshal(map[string][]string{"ops": proto.Ops(), "slots": proto.Slots()})
	for _, mode := range modes {
		argv, _ := json.Marshal([]string{"/usr/bin/env", chaos.EnvMode + "=" + mode, chaos.EnvServes + "=" + string(serves), "CHAOS_LEAVE_TMP=1", "GORACE=atexit_sleep_ms=0", exe})
		runner := filepath.Join(dir, "runners", "chaos-"+mode)
		script := "#!/usr/bin/env bash\necho '" + string(argv) + "'\n"
		if err := os.MkdirAll(runner, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(runner, "prepare"), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		manifest := `{"name": "chaos-` + mode + `", "language": "Go", "implementations": [{"name": "chaos-` + mode + `"}]}`
		if err := os.WriteFile(filepath.Join(runner, ports.ManifestName), []byte(manifest), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestChaosBesideReference runs the reference beside chaos implementations: the reference's
// column stays intact, each chaos column is red with the fault named, nothing is left over.
func TestChaosBesideReference(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Go adapter")
	}
	root, err := ports.Root()
	if err != nil {
		t.Fatal(err)
	}
	faults := map[string]string{ // the first op after hello is the one each mode breaks
		"crash":        "exited (exit status 2) during toolkit.create",
		"escape-crash": "had left its process group and was killed",
		"binary":       `broke the protocol during toolkit.create (not JSON: invalid character '\x00' looking for beginning of value) with the line \x00\xff\xfe\x1b]0;pwned\x07`,
		"hang":         "did not answer toolkit.create within 5s",
		// The op and request number depend on which scenario the feature order runs first.
		"duplicate": "wrote an extra line after answering ",
		// A port-level error, not a broken adapter: the step quotes it, escaped.
		"ansi-error": `failed: \x1b]0;pwned\x07\x1b[31mboom\u009b`,
		// A crash the library left outside the call's result: the runner fails the scenario.
		"unhandled": "the library crashed outside the call's result (it would end a default host process): unhandled rejection: Error: boom after the call",
	}
	var modes []string
	for m := range faults {
		modes = append(modes, m)
	}
	// Well-behaved adapters that leave a child (escape) or a daemon that leaves their session,
	// environment, parent and, where it may, cgroup (escape-daemon, escape-cgroup) behind.
	leakers := []string{"escape", "escape-daemon", "escape-cgroup"}
	modes = append(modes, leakers...)
	dir := chaosRoot(t, root, modes...)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // scenario dirs, and the adapters' temp files (chaos-crash leaves one), land here: leftovers are ours to see
	exe, _ := os.Executable()
	socketsBefore := listeningSockets(t)
	var progress lockedBuffer
	impls := []string{"reference"}
	for _, m := range modes {
		impls = append(impls, "chaos-"+m)
	}
	began := time.Now()
	results, err := Run(context.Background(), Options{Library: steps.Library(), Returned: steps.Returned,
		Root: dir, Cache: filepath.Join(root, ".cache"), Ports: impls,
		Tags: "@G1.2,@A5.1", CallTimeout: 5 * time.Second, ScenarioTimeout: time.Minute,
		Jobs:           1, // one process serves the scenarios in turn, so a line it writes late is seen by the next request
		PrepareTimeout: 5 * time.Minute, StdioArgv: []string{exe, "fake-mcp-stdio"}, Progress: &progress,
		NoRetry: true, // each fault is judged on the attempt it broke; retries have tests of their own
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("run took %s", time.Since(began))
	byName := map[string]*result.PortResult{}
	for _, r := range results {
		byName[r.Port] = r
	}

	ref := byName["reference"]
	if !ref.Present || len(ref.Scenarios) != 3 || ref.HarnessErr != "" || ref.Unexpected() != 0 {
		t.Fatalf("reference column not intact: present %v (%s), %d scenarios, harness error %q, %d unexpected",
			ref.Present, ref.Reason, len(ref.Scenarios), ref.HarnessErr, ref.Unexpected())
	}
	for _, o := range ref.Scenarios {
		if o.Status != "pass" {
			t.Errorf("reference: %s: %s %s", o.Scenario, o.Status, o.Message)
		}
	}
	for mode, fault := range faults {
		r := byName["chaos-"+mode]
		if !r.Present || len(r.Scenarios) != 3 || r.Unexpected() == 0 {
			t.Errorf("chaos-%s: present %v (%s), %d scenarios, %d unexpected; want 3 scenarios, red",
				mode, r.Present, r.Reason, len(r.Scenarios), r.Unexpected())
			continue
		}
		// Every scenario fails, except that a duplicate is only seen by the next request:
		// the scenario whose last request got two answers ended before it could be told. Once
		// BreakerThreshold scenarios failed, the breaker may leave the rest not run.
		named, failed := 0, 0
		for _, o := range r.Scenarios {
			if o.Status == "fail" {
				failed++
			}
		}
		for _, o := range r.Scenarios {
			if (mode == "ansi-error" || mode == "unhandled" || strings.Contains(o.Message, `adapter "chaos-`+mode+`" `)) && strings.Contains(o.Message, fault) {
				named++
			}
			cut := o.Status == result.StatusUnresponsive && r.Unresponsive != "" && failed >= BreakerThreshold
			if o.Status == "pass" || (o.Status != "fail" && mode != "duplicate" && !cut) {
				t.Errorf("chaos-%s: %s: %s %q", mode, o.Scenario, o.Status, o.Message)
			}
		}
		if named == 0 {
			t.Errorf("chaos-%s: no scenario names the adapter and %q: %+v", mode, fault, r.Scenarios)
		}
	}
	// What a well-behaved adapter left running after its shutdown is its own failure.
	for _, mode := range leakers {
		if r := byName["chaos-"+mode]; !strings.Contains(r.Leaked, "outside its process group after shutdown") || r.HarnessErr != "" || r.Unexpected() == 0 {
			t.Errorf("chaos-%s: leaked %q, harness error %q, %d unexpected; want the leak as its own failure, red", mode, r.Leaked, r.HarnessErr, r.Unexpected())
		}
	}
	for _, r := range results {
		// escape-crash's spares leave their child too, shut down in order.
		if r.Leaked != "" && !slices.Contains(append(leakers, "escape-crash"), strings.TrimPrefix(r.Port, "chaos-")) {
			t.Errorf("%s is blamed for a leak: %s", r.Port, r.Leaked)
		}
	}
	if left := daemonsOf(exe); len(left) > 0 {
		t.Errorf("chaos daemons outlived the run: %v", left)
	}
	if out, _ := json.Marshal(results); !inertJSON(out) || !utf8.Valid(progress.Bytes()) || bytes.ContainsAny(progress.Bytes(), "\x1b\x07\x00") {
		t.Errorf("raw adapter bytes reached the results or the progress output")
	}

	if left := adapterProcesses(); len(left) > 0 {
		t.Errorf("adapter processes left after the run: %v", left)
	}
	if after := listeningSockets(t); after > socketsBefore {
		t.Errorf("%d listening sockets before the run, %d after", socketsBefore, after)
	}
	if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("temp entries left after the run: %v", names)
	}
}

// daemonsOf lists the live processes of program exe playing a chaos daemon.
func daemonsOf(exe string) []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		if link, _ := os.Readlink(filepath.Join("/proc", e.Name(), "exe")); link != exe {
			continue
		}
		env, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if bytes.Contains(env, []byte("daemon")) && !bytes.Contains(stat, []byte(") Z ")) {
			out = append(out, e.Name()+": "+strings.ReplaceAll(string(env), "\x00", " "))
		}
	}
	return out
}

// inertJSON: JSON escapes control characters itself; what must not appear is an escaped
// ESC/BEL/NUL (which a report would print raw) or a replacement for invalid UTF-8.
func inertJSON(b []byte) bool {
	for _, bad := range []string{`\u001b`, `\u0007`, `\u0000`, "\ufffd"} {
		if bytes.Contains(b, []byte(bad)) {
			return false
		}
	}
	return true
}

// adapterProcesses lists live processes started as (or by) an adapter of this test process.
func adapterProcesses() []string {
	var out []string
	want := []byte(adapter.EnvToken + "=" + strconv.Itoa(os.Getpid()) + "-")
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err == nil && bytes.Contains(env, want) {
			cmd, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
			out = append(out, e.Name()+": "+strings.ReplaceAll(string(cmd), "\x00", " "))
		}
	}
	return out
}

// lockedBuffer is a progress writer the port goroutines may share.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Bytes()
}
