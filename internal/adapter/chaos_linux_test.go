package adapter

import (
	"context"
	"os"
	"regexp"
	"slices"
	"strconv"
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

// An adapter is started as a child subreaper (package shim): the daemon escape-daemon leaves
// (its own session, an empty environment, its parent gone) is reparented to the adapter, in
// whose tree the runner finds it, and not to the runner, where nothing tells whose it is.
func TestAnAdapterKeepsWhatItOrphans(t *testing.T) {
	p := start(t, "escape-daemon", 10*time.Second)
	if _, err := p.Call(context.Background(), "hello", nil); err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`daemon pid (\d+)`).FindStringSubmatch(p.StderrTail())
	if m == nil {
		t.Fatalf("the chaos adapter did not say its daemon's pid: %q", p.StderrTail())
	}
	pid, _ := strconv.Atoi(m[1])
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
	// Its stderr is copied apart from its answers: the daemon's line may come after hello's.
	var m []string
	for end := time.Now().Add(5 * time.Second); m == nil && time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		m = regexp.MustCompile(`daemon pid (\d+)`).FindStringSubmatch(leaker.StderrTail())
	}
	if m == nil {
		t.Fatalf("no daemon pid in %q", leaker.StderrTail())
	}
	pid, _ := strconv.Atoi(m[1])
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
