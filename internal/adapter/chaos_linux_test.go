package adapter

import (
	"context"
	"os"
	"regexp"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// leftovers lists processes still carrying p's token, and zombies of ours in its group.
func (p *Process) leftovers() []string {
	var out []string
	self := os.Getpid()
	for pid, pi := range allProcs() {
		if pid == self {
			continue
		}
		if p.hasToken(pid) || pid == p.pid || (pi.pgrp == p.pid && pi.ppid == self) {
			out = append(out, strconv.Itoa(pid)+" "+pi.comm+" "+string(pi.state))
		}
	}
	return out
}

// daemonPID is the pid of the daemon p's chaos adapter said it left. Its stderr is copied apart
// from its answers, so the line may come a little after hello's answer: 5 s at most.
func daemonPID(t *testing.T, p *Process) int {
	t.Helper()
	re := regexp.MustCompile(`daemon pid (\d+)`)
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if m := re.FindStringSubmatch(p.StderrTail()); m != nil {
			pid, _ := strconv.Atoi(m[1])
			return pid
		}
	}
	t.Fatalf("the chaos adapter did not say its daemon's pid: %q", p.StderrTail())
	return 0
}

// An adapter is started as a child subreaper (package shim): the daemon escape-daemon leaves
// (its own session, an empty environment, its parent gone) is reparented to the adapter, in
// whose tree the runner finds it, and not to the runner, where nothing tells whose it is.
func TestAnAdapterKeepsWhatItOrphans(t *testing.T) {
	p := start(t, "escape-daemon", 10*time.Second)
	if _, err := p.Call(context.Background(), "hello", nil); err != nil {
		t.Fatal(err)
	}
	pid := daemonPID(t, p)
	pi, ok := readProc(pid)
	if !ok || pi.ppid != p.pid {
		t.Errorf("the daemon's parent is %d, not the adapter %d", pi.ppid, p.pid)
	}
	p.Close()
	if len(p.Leaks()) != 1 || p.Leaks()[0].PID != pid {
		t.Errorf("leaks %v; want the daemon %d", p.Leaks(), pid)
	}
}

// A fork server's adapters are no subreapers: the daemon one leaves (out of its cgroup too) is
// reparented to the runner. While an adapter of another implementation that could have left
// it lived when it was forked, neither adapter's kill claims it; the run's end kills it and
// names both implementations.
func TestAnOrphanOfAForkedAdapterIsNamedAtTheEnd(t *testing.T) {
	fs, _ := startFake(t, "good")
	s, err := loadSchema()
	if err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	forked := func(port, mode string) *Process {
		p, err := Start(Config{Port: port, Argv: []string{exe}, Env: chaosEnv(mode), Dir: t.TempDir(),
			CallTimeout: 10 * time.Second, StartTimeout: 10 * time.Second, Schema: s, Fork: fs})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Close)
		if !p.Forked() {
			t.Fatal("not forked")
		}
		return p
	}
	other := forked("other", "good")
	leaker := forked("leaker", "escape-cgroup")
	hello(t, other)
	hello(t, leaker)
	pid := daemonPID(t, leaker)
	time.Sleep(100 * time.Millisecond) // its parent, the forker, has exited: it is an orphan
	leaker.Close()
	other.Close()
	if len(leaker.Leaks())+len(other.Leaks()) != 0 {
		t.Errorf("leaks %v, %v: neither adapter alone could have left it", leaker.Leaks(), other.Leaks())
	}
	var found *Orphan
	for _, o := range SweepOrphans() {
		if o.PID == pid {
			found = &o
		}
	}
	if found == nil || !slices.Equal(found.Ports, []string{"leaker", "other"}) && !slices.Equal(found.Ports, []string{"other", "leaker"}) {
		t.Fatalf("the daemon %d was not named against both implementations at the end: %+v", pid, found)
	}
	if pi, ok := readProc(pid); ok && pi.state != 'Z' {
		t.Errorf("the daemon %d outlived the sweep", pid)
	}
}

// A subreaper keeps its orphans only while it lives: once it has exited its tree is the
// runner's, and another adapter's sweep must not take what it left for its own (it would be
// blamed for a leak that is not its). Seen in the chaos suite under load: chaos-unhandled was
// blamed for escape-cgroup's daemon.
func TestAnExitedAdaptersOrphanIsNoOtherAdaptersLeak(t *testing.T) {
	s, err := loadSchema()
	if err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	started := func(port, mode string) *Process {
		p, err := Start(Config{Port: port, Argv: []string{exe}, Env: chaosEnv(mode),
			CallTimeout: 10 * time.Second, StartTimeout: 10 * time.Second, Schema: s})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Close)
		if !p.shimmed {
			t.Skip("no shim here: the adapters are no subreapers")
		}
		return p
	}
	// The other first: it lived when the daemon was forked (at the leaker's start).
	other := started("other", "good")
	time.Sleep(50 * time.Millisecond)            // births are told apart in 10 ms clock ticks
	leaker := started("leaker", "escape-cgroup") // its daemon leaves the adapter's cgroup too
	hello(t, other)
	hello(t, leaker)
	pid := daemonPID(t, leaker)
	// The leaker dies on its own, its daemon still running: the daemon is the runner's now.
	_ = syscall.Kill(leaker.pid, syscall.SIGKILL)
	select {
	case <-leaker.exited:
	case <-time.After(5 * time.Second):
		t.Fatal("the killed adapter did not exit")
	}
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if pi, ok := readProc(pid); ok && pi.ppid == os.Getpid() {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("the daemon %d was not reparented to the runner", pid)
		}
	}
	// The daemon moves itself out of the leaker's cgroup, where it may (else its cgroup names it).
	for end := time.Now().Add(5 * time.Second); inAdapterCgroup(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Skip("the daemon could not leave its adapter's cgroup here")
		}
	}
	other.Close()
	for _, l := range other.Leaks() {
		if l.PID == pid {
			t.Errorf("the other adapter is blamed for the leaker's daemon: %v", other.Leaks())
		}
	}
	leaker.Close()
	named := false
	for _, o := range SweepOrphans() {
		named = named || (o.PID == pid && slices.Contains(o.Ports, "leaker"))
	}
	for _, l := range leaker.Leaks() {
		named = named || l.PID == pid
	}
	if !named {
		t.Errorf("the daemon %d was named neither as the leaker's leak nor as an orphan it may have left", pid)
	}
	if pi, ok := readProc(pid); ok && pi.state != 'Z' {
		t.Errorf("the daemon %d outlived the sweep", pid)
	}
}
