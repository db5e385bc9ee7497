package adapter

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/chaos"
	"github.com/muthuishere/toolnexus-conformance/schema"
)

// TestMain lets the test binary play the chaos adapter, in the mode CHAOS_MODE names.
func TestMain(m *testing.M) {
	if fakeForkMain() { // never returns in the fake fork server (fork_linux_test.go)
		return
	}
	if os.Getenv(chaos.EnvMode) != "" {
		chaos.Main()
		return
	}
	os.Exit(m.Run())
}

func start(t *testing.T, mode string, callTimeout time.Duration) *Process {
	t.Helper()
	s, err := loadSchema()
	if err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	p, err := Start(Config{Port: "chaos", Argv: []string{exe}, Env: chaosEnv(mode),
		CallTimeout: callTimeout, StartTimeout: callTimeout, Schema: s})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// loadSchema compiles the protocol schema once: it is slow under -race.
var loadSchema = sync.OnceValues(func() (*schema.Protocol, error) { return schema.LoadTree("../..") })

// chaosEnv selects the mode; the race runtime's 1 s sleep at exit would slow every Close.
func chaosEnv(mode string) []string {
	return []string{chaos.EnvMode + "=" + mode, "GORACE=atexit_sleep_ms=0"}
}

var closeArgs = map[string]any{"toolkit": "t"}

func TestGoodCall(t *testing.T) {
	p := start(t, "good", 10*time.Second)
	r, err := p.Call(context.Background(), "hello", nil)
	if err != nil || !r.OK || r.Result["port"] != "chaos" {
		t.Fatalf("hello: r=%+v err=%v", r, err)
	}
	r, err = p.Call(context.Background(), "toolkit.close", closeArgs)
	if err != nil || r.OK || r.Error.Kind != "unsupported" {
		t.Fatalf("toolkit.close: r=%+v err=%v", r, err)
	}
	// stderr is read apart from stdout: the line may land just after the answer.
	for deadline := time.Now().Add(2 * time.Second); !strings.Contains(p.StderrTail(), "chaos good: got toolkit.close"); {
		if time.Now().After(deadline) {
			t.Fatalf("stderr tail missing: %q", p.StderrTail())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestHarnessRequestRejected(t *testing.T) {
	p := start(t, "good", 10*time.Second)
	_, err := p.Call(context.Background(), "client.create", map[string]any{"handle": "c"})
	if err == nil || !strings.Contains(err.Error(), "harness bug") {
		t.Fatalf("err=%v", err)
	}
}

func TestReadLineBounded(t *testing.T) {
	for _, c := range []struct {
		in   string
		max  int
		want []string
		err  error
	}{
		{"abc\r\nd\n", 8, []string{"abc", "d"}, io.EOF},
		{"12345678\n", 8, []string{"12345678"}, io.EOF},
		{"123456789\n", 8, nil, errLineTooLong},
		{strings.Repeat("x", 100) + "\n", 8, nil, errLineTooLong},
		{"no newline", 16, []string{"no newline"}, io.EOF},
	} {
		br := bufio.NewReaderSize(strings.NewReader(c.in), 16)
		var got []string
		var err error
		for {
			var line []byte
			if line, err = readLine(br, c.max); err != nil {
				break
			}
			got = append(got, string(line))
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") || !errors.Is(err, c.err) {
			t.Errorf("%q max %d: got %q, %v; want %q, %v", c.in, c.max, got, err, c.want, c.err)
		}
	}
}

// A slow start (a JVM or CPython on a loaded machine) is judged by the start deadline, not
// by the call deadline: hello after 1.5 s with a 1 s call deadline is fine; later calls keep
// the call deadline.
func TestFirstAnswerGetsTheStartDeadline(t *testing.T) {
	s, err := loadSchema()
	if err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	p, err := Start(Config{Port: "chaos", Argv: []string{exe}, Env: chaosEnv("slow-hello"),
		CallTimeout: time.Second, StartTimeout: 10 * time.Second, Schema: s})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	if r, err := p.Call(context.Background(), "hello", nil); err != nil || !r.OK {
		t.Fatalf("hello: %v %+v", err, r)
	}
	if _, err := p.Call(context.Background(), "hello", nil); err != nil {
		t.Fatalf("second call: %v", err)
	}
}

// KillAll, for a runner about to exit at once, ends a live adapter that ignores SIGTERM and
// never answers (its process exits, so the runner reaps it), and forgets one already killed.
func TestKillAllEndsAHungAdapter(t *testing.T) {
	p := start(t, "hang", 30*time.Second)
	if _, err := p.Call(context.Background(), "hello", nil); err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = p.Call(context.Background(), "toolkit.close", closeArgs) }() // hangs
	time.Sleep(200 * time.Millisecond)
	KillAll()
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second):
		t.Fatal("the hung adapter outlived KillAll")
	}
	p.Close()
	live.mu.Lock()
	defer live.mu.Unlock()
	if live.procs[p] {
		t.Error("a closed adapter is still on the live list")
	}
}
