package suite

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/muthuishere/toolnexus-conformance/steps"

	mcpfake "github.com/muthuishere/toolnexus-conformance/fakes/mcp"
	"github.com/muthuishere/toolnexus-conformance/internal/ports"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// TestMain lets this test binary serve as the fake stdio MCP server the scenarios spawn.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "fake-mcp-stdio" {
		os.Exit(mcpfake.StdioMain(os.Args[2:]))
	}
	os.Exit(m.Run())
}

// TestRunLeavesNothingBehind runs scenarios that spawn stdio children and open sockets and
// checks that afterwards no process and no listening socket of ours is left.
func TestRunLeavesNothingBehind(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Go adapter")
	}
	root, err := ports.Root()
	if err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	before := listeningSockets(t)
	procsBefore := processes()
	// A cache of its own: the adapter's path then names this run's adapters alone, not those
	// another package's tests start from the shared cache at the same time.
	cache := t.TempDir()
	results, err := Run(context.Background(), Options{Library: steps.Library(), Returned: steps.Returned,
		Root: root, Cache: cache, Ports: []string{ports.Reference},
		Tags: "@G3.5,@G6.2,@G1.1,@A5.1", CallTimeout: 15 * time.Second, ScenarioTimeout: time.Minute,
		PrepareTimeout: 5 * time.Minute, StdioArgv: []string{exe, "fake-mcp-stdio"},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := results[0]
	if !r.Present {
		t.Fatalf("reference not present: %s", r.Summary())
	}
	if len(r.Scenarios) < 7 {
		t.Fatalf("only %d scenarios ran", len(r.Scenarios))
	}
	for _, o := range r.Scenarios {
		if o.Status != result.StatusPass {
			t.Errorf("%s: %s %s", o.Scenario, o.Status, o.Message)
		}
	}
	// Adapters are gone when Run returns; their stdio children may take a moment to be reaped.
	deadline := time.Now().Add(3 * time.Second)
	for {
		leaked := newProcesses(procsBefore, processes(), exe, cache)
		if len(leaked) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes left after the run: %v", leaked)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if after := listeningSockets(t); after > before {
		t.Fatalf("%d listening sockets before the run, %d after", before, after)
	}
}

// processes maps live pids to their command lines.
func processes() map[int]string {
	out := map[int]string{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || len(b) == 0 {
			continue // gone, or a zombie/kernel thread
		}
		if st, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil {
			if f := strings.Fields(string(st)); len(f) > 2 && f[2] == "Z" {
				continue
			}
		}
		out[pid] = strings.ReplaceAll(string(b), "\x00", " ")
	}
	return out
}

// newProcesses lists processes started since before that belong to this run: adapters and
// the stdio fakes they spawned (this test binary's, under this root: other checkouts on the
// machine may be running suites of their own).
func newProcesses(before, now map[int]string, exe, cache string) []string {
	var out []string
	for pid, cmd := range now {
		if _, old := before[pid]; old || pid == os.Getpid() {
			continue
		}
		if strings.Contains(cmd, exe+" fake-mcp-stdio") || strings.Contains(cmd, filepath.Join(cache, "go", "adapter")) {
			out = append(out, strconv.Itoa(pid)+": "+cmd)
		}
	}
	return out
}

// listeningSockets counts TCP sockets in LISTEN state owned by this process.
func listeningSockets(t *testing.T) int {
	t.Helper()
	inodes := map[string]bool{}
	fds, _ := os.ReadDir("/proc/self/fd")
	for _, fd := range fds {
		link, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if err == nil && strings.HasPrefix(link, "socket:[") {
			inodes[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")] = true
		}
	}
	n := 0
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(table)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) > 9 && fields[3] == "0A" && inodes[fields[9]] {
				n++
			}
		}
		f.Close()
	}
	return n
}
