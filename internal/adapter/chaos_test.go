package adapter

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// The chaos tests start the chaos adapter in each fault mode and check that the call ends
// within its bound, the error names the port and the fault (blamed on the right request),
// everything quoted is escaped, and no process, file descriptor or goroutine is left.

const (
	slowTimeout = 10 * time.Second // long, so a crash mistaken for a timeout is caught by the bound
	fastTimeout = time.Second      // for the modes whose fault is silence
	// bound for a fault that is not silence: eofGrace + killWait + slack for -race on 2 cores.
	faultBound = 4 * time.Second
)

func TestChaosFaults(t *testing.T) {
	for _, c := range []struct {
		mode    string
		timeout time.Duration
		op      string // the call that fails (hello for faults at start)
		want    string
		stderr  string
	}{
		{"exit-at-start", slowTimeout, "hello", "exited (exit status 1)", "chaos: refusing to start"},
		{"hang-hello", fastTimeout, "hello", "did not answer hello within 1s", ""},
		{"crash", slowTimeout, "toolkit.close", "exited (exit status 2) during toolkit.close", "panic: chaos crash"},
		{"garbage", slowTimeout, "toolkit.close", "broke the protocol during toolkit.close", ""},
		{"binary", slowTimeout, "toolkit.close", `broke the protocol during toolkit.close`, ""},
		{"huge", slowTimeout, "toolkit.close", "wrote a line longer than the 8 MiB maximum during toolkit.close", ""},
		{"closed-stdout", slowTimeout, "toolkit.close", "closed its stdout but kept running during toolkit.close", ""},
		{"hang", fastTimeout, "toolkit.close", "did not answer toolkit.close within 1s", ""},
		{"wrong-id", slowTimeout, "toolkit.close", "answered id 9 to request 2 (toolkit.close)", ""},
		{"schema", slowTimeout, "toolkit.close", "broke the protocol during toolkit.close", ""},
		{"escape-crash", slowTimeout, "toolkit.close", "exited (exit status 2) during toolkit.close", "panic: chaos crash"},
	} {
		t.Run(c.mode, func(t *testing.T) {
			before := snapshot()
			p := start(t, c.mode, c.timeout)
			began := time.Now()
			_, err := p.Call(context.Background(), "hello", nil)
			if c.op != "hello" {
				if err != nil {
					t.Fatalf("hello: %v", err)
				}
				began = time.Now()
				_, err = p.Call(context.Background(), c.op, closeArgs)
			}
			elapsed := time.Since(began)
			b := mustBroken(t, err, c.op, c.want)
			if bound := c.timeout + faultBound; c.timeout == slowTimeout && elapsed > faultBound || elapsed > bound {
				t.Errorf("the fault took %s to be reported", elapsed)
			}
			if c.stderr != "" && !strings.Contains(b.StderrTail, c.stderr) {
				t.Errorf("stderr tail %q lacks %q", b.StderrTail, c.stderr)
			}
			if strings.HasPrefix(c.mode, "escape") {
				if len(b.Leaks) != 1 || !strings.Contains(err.Error(), "had left its process group and was killed") {
					t.Errorf("escaped child not reported: leaks %v, err %v", b.Leaks, err)
				}
			} else if len(b.Leaks) != 0 {
				t.Errorf("leaks reported for a mode that leaves none: %v", b.Leaks)
			}
			if _, err := p.Call(context.Background(), "hello", nil); err == nil {
				t.Error("a broken adapter accepted another call")
			}
			p.Close()
			nothingLeft(t, p, before)
		})
	}
}

func TestChaosBinaryIsEscaped(t *testing.T) {
	p := start(t, "binary", slowTimeout)
	if _, err := p.Call(context.Background(), "hello", nil); err != nil {
		t.Fatal(err)
	}
	_, err := p.Call(context.Background(), "toolkit.close", closeArgs)
	b := mustBroken(t, err, "toolkit.close", `\x00\xff\xfe\x1b]0;pwned\x07\x1b[2J\x1b[31mred\x9b`)
	_ = b
}

func TestChaosDuplicateBlamedOnItsRequest(t *testing.T) {
	for mode, extra := range map[string]string{
		"duplicate":        `{"id":2,"ok":false`,
		"duplicate-late":   `{"id":2,"ok":false`,
		"trailing-garbage": `\x1b[31mtrailing garbage`,
	} {
		t.Run(mode, func(t *testing.T) {
			before := snapshot()
			p := start(t, mode, slowTimeout)
			for _, op := range []string{"hello", "toolkit.close"} {
				if _, err := p.Call(context.Background(), op, closeArgs0(op)); err != nil {
					t.Fatalf("%s: %v", op, err)
				}
			}
			// The next request finds the extra line waiting (written while idle) or receives
			// it before its answer (duplicate-late); either way toolkit.close is blamed.
			time.Sleep(100 * time.Millisecond)
			began := time.Now()
			_, err := p.Call(context.Background(), "store.get", map[string]any{"client": "c", "id": "x"})
			mustBroken(t, err, "toolkit.close", "wrote an extra line after answering toolkit.close (request 2): "+extra)
			if elapsed := time.Since(began); elapsed > faultBound {
				t.Errorf("took %s", elapsed)
			}
			p.Close()
			nothingLeft(t, p, before)
		})
	}
}

func closeArgs0(op string) any {
	if op == "hello" {
		return nil
	}
	return closeArgs
}

func TestChaosStderrFloodIsBoundedAndEscaped(t *testing.T) {
	before := snapshot()
	p := start(t, "stderr-flood", slowTimeout)
	for _, op := range []string{"hello", "toolkit.close"} {
		if _, err := p.Call(context.Background(), op, closeArgs0(op)); err != nil {
			t.Fatalf("%s: %v", op, err)
		}
	}
	if p.MarkStderr() < 16<<20 {
		t.Errorf("only %d bytes of stderr read", p.MarkStderr())
	}
	tail := p.StderrTail()
	if len(tail) > 4*showBytes+16 || !strings.Contains(tail, `\x1b[31mflood\x1b]0;title\x07 \xff`) {
		t.Errorf("tail (%d bytes) not bounded or not escaped: %.200q", len(tail), tail)
	}
	inert(t, tail)
	p.Close()
	nothingLeft(t, p, before)
}

func TestChaosEscapedChildFoundAtClose(t *testing.T) {
	for _, c := range []struct {
		mode  string
		leaks int
	}{{"escape", 1}, {"escape-daemon", 1}, {"escape-cgroup", 1}, {"good", 0}} {
		t.Run(c.mode, func(t *testing.T) {
			before := snapshot()
			p := start(t, c.mode, slowTimeout)
			for _, op := range []string{"hello", "toolkit.close"} {
				if _, err := p.Call(context.Background(), op, closeArgs0(op)); err != nil {
					t.Fatalf("%s: %v", op, err)
				}
			}
			began := time.Now()
			p.Close()
			// Before: 8 s (3 s shutdown grace + 5 s kill wait, both held up by the pipes).
			if elapsed := time.Since(began); elapsed > 1500*time.Millisecond {
				t.Errorf("Close took %s", elapsed)
			}
			if leaks := p.Leaks(); len(leaks) != c.leaks {
				t.Errorf("leaks %v, want %d", leaks, c.leaks)
			} else if c.leaks > 0 && leaks[0].Session != leaks[0].PID {
				t.Errorf("leak %v is not the session leader chaos started", leaks[0])
			}
			nothingLeft(t, p, before)
		})
	}
}

// Without a cgroup (CONFORMANCE_NO_CGROUP=1, or none writable) the escapes above are still
// found: an orphan reparented to the runner in a session of its own. The cgroup choice is made
// once per process, so the check runs in a child of this test binary.
func TestEscapesFoundWithoutCgroup(t *testing.T) {
	if os.Getenv("CONFORMANCE_NO_CGROUP") != "" {
		t.Skip("this is the child")
	}
	exe, _ := os.Executable()
	// -test.timeout as go test passes it: its timer starts the runtime's poller (two fds)
	// before the test's baseline count, not during its first Close.
	cmd := exec.Command(exe, "-test.run", "^TestChaosEscapedChildFoundAtClose$", "-test.v", "-test.timeout", "2m")
	cmd.Env = append(os.Environ(), "CONFORMANCE_NO_CGROUP=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("without a cgroup: %v\n%s", err, out)
	}
}

func TestCancelAbandonsCallAtOnce(t *testing.T) {
	before := snapshot()
	p := start(t, "hang", time.Minute)
	if _, err := p.Call(context.Background(), "hello", nil); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	began := time.Now()
	_, err := p.Call(ctx, "toolkit.close", closeArgs)
	mustBroken(t, err, "toolkit.close", "was abandoned during toolkit.close (context canceled)")
	if elapsed := time.Since(began); elapsed > 100*time.Millisecond+killWait {
		t.Errorf("cancel took %s to end the call", elapsed)
	}
	p.Close()
	nothingLeft(t, p, before)
}

func mustBroken(t *testing.T, err error, op, want string) *Broken {
	t.Helper()
	var b *Broken
	if !errors.As(err, &b) {
		t.Fatalf("err = %v, want *Broken", err)
	}
	if b.Port != "chaos" || b.Op != op || !strings.Contains(b.What, want) {
		t.Fatalf("Broken{Port %q, Op %q, What %q}, want port chaos, op %s, fault %q", b.Port, b.Op, b.What, op, want)
	}
	if !strings.HasPrefix(err.Error(), `adapter "chaos" `) {
		t.Errorf("error does not name the port: %v", err)
	}
	inert(t, err.Error())
	return b
}

// inert fails when s holds a byte that could act on a terminal.
func inert(t *testing.T, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Errorf("invalid UTF-8 in %.300q", s)
	}
	for _, r := range s {
		if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) {
			t.Errorf("control %U in %.300q", r, s)
			return
		}
	}
}

type state struct {
	fds, goroutines int
}

func snapshot() state {
	return state{fds: countFDs(), goroutines: runtime.NumGoroutine()}
}

func countFDs() int {
	fds, _ := os.ReadDir("/proc/self/fd")
	return len(fds)
}

// nothingLeft checks that no process of p's (alive or unreaped), no descriptor and no
// goroutine outlived Close.
func nothingLeft(t *testing.T, p *Process, before state) {
	t.Helper()
	if runtime.GOOS != "linux" {
		return
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		procs, now := p.leftovers(), snapshot()
		if len(procs) == 0 && now.fds <= before.fds && now.goroutines <= before.goroutines {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("left after Close: processes %v, fds %d -> %d, goroutines %d -> %d",
				procs, before.fds, now.fds, before.goroutines, now.goroutines)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
