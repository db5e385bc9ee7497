package adapter

import (
	"bytes"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/safetext"
)

// The runner is a child subreaper: a descendant orphaned by an adapter's death is
// reparented to us, not to init, so we can reap it once killed (init here may not reap).
var subreaper sync.Once

func becomeSubreaper() {
	subreaper.Do(func() {
		const prSetChildSubreaper = 36
		_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	})
}

// procInfo is what /proc/<pid>/stat says about one process.
type procInfo struct {
	pid, ppid, pgrp, session int
	state                    byte
	comm                     string
	start                    uint64 // clock ticks after boot at which it was forked
}

// suspect records port as one an orphan (pid, start) may be from.
func (l *liveSet) suspect(o procInfo, port string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := o.key()
	if !slices.Contains(l.suspected[k], port) {
		l.suspected[k] = append(l.suspected[k], port)
	}
}

// reserve records the descendants p's Close found before asking it to shut down: once p has
// exited they are the runner's orphans, which another adapter's sweep must not take for its
// own (it would kill them first, and p's leak would be blamed on it). release ends it.
func (l *liveSet) reserve(p *Process, known map[int]procInfo) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, pi := range known {
		l.reserved[pi.key()] = p
	}
}

func (l *liveSet) release(p *Process) {
	l.mu.Lock()
	defer l.mu.Unlock()
	maps.DeleteFunc(l.reserved, func(_ [2]uint64, q *Process) bool { return q == p })
}

// reservedBy is the adapter whose Close found pi among its descendants (nil: none).
func (l *liveSet) reservedBy(pi procInfo) *Process {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.reserved[pi.key()]
}

// suspects are the ports suspect recorded for an orphan.
func (l *liveSet) suspects(o procInfo) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.suspected[o.key()]...)
}

// key names a process across pid reuse.
func (pi procInfo) key() [2]uint64 { return [2]uint64{uint64(pi.pid), pi.start} }

func readProc(pid int) (procInfo, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procInfo{}, false
	}
	// pid (comm) state ppid pgrp session …; comm may hold spaces and parentheses.
	open, close := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || close < open {
		return procInfo{}, false
	}
	f := strings.Fields(string(b[close+1:]))
	if len(f) < 20 {
		return procInfo{}, false
	}
	pi := procInfo{pid: pid, comm: string(b[open+1 : close]), state: f[0][0]}
	pi.ppid, _ = strconv.Atoi(f[1])
	pi.pgrp, _ = strconv.Atoi(f[2])
	pi.session, _ = strconv.Atoi(f[3])
	pi.start, _ = strconv.ParseUint(f[19], 10, 64) // field 22, starttime
	return pi, true
}

// CPU is the user+sys CPU the adapter itself has used so far (0 when /proc cannot say): read
// at hello, it is what its start cost (a runtime start, or a fork's few milliseconds).
func (p *Process) CPU() time.Duration {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(p.pid) + "/stat")
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseUint(f[11], 10, 64) // fields 14 and 15, in clock ticks
	stime, _ := strconv.ParseUint(f[12], 10, 64)
	const clockTick = 10 * time.Millisecond // USER_HZ is 100 on every Linux ABI Go supports
	return time.Duration(utime+stime) * clockTick
}

// startTime is when pid was forked, in clock ticks after boot (0 when unknown).
func startTime(pid int) uint64 {
	pi, _ := readProc(pid)
	return pi.start
}

// nowTicks is the time in clock ticks after boot (USER_HZ, 100 a second), 0 when unknown.
func nowTicks() uint64 {
	b, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0
	}
	up, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return 0
	}
	return uint64(up*100) + 1 // rounded up: a process forked this tick is "before now"
}

// orphans are the processes reparented to the runner (a child subreaper) in a session of
// their own, outside every adapter's cgroup. The runner starts nothing in a new session, so
// each is a descendant of a process it started that lost its parent: found by its birth,
// whatever it did to its cgroup, environment and process group. One still in an adapter's
// cgroup is that adapter's (found by its cgroup).
func orphans(procs map[int]procInfo) []procInfo {
	self := os.Getpid()
	me, ok := procs[self]
	if !ok {
		me, _ = readProc(self)
	}
	var out []procInfo
	for _, pi := range procs {
		if pi.ppid == self && pi.session != me.session && pi.state != 'Z' && !inAdapterCgroup(pi.pid) {
			out = append(out, pi)
		}
	}
	return out
}

// SweepOrphans kills the orphans (above) that no adapter could claim alone when it was
// killed, once no adapter that may have left them lives, and returns each with the
// implementations it may be from: those of the adapters that were no subreaper (a fork
// server's) and lived when it was forked, and of those that had exited when it was found as
// an orphan they could have left. For the end of a run.
func SweepOrphans() []Orphan {
	var out []Orphan
	for _, pi := range orphans(allProcs()) {
		ports := live.suspects(pi)
		alive := false
		for _, s := range live.at(pi.start) {
			if !s.shim {
				alive = alive || s.died == 0
				if !slices.Contains(ports, s.port) {
					ports = append(ports, s.port)
				}
			}
		}
		if alive || len(ports) == 0 {
			continue // its adapter may still live (a later sweep), or no adapter left it
		}
		_ = syscall.Kill(pi.pid, syscall.SIGKILL)
		var ws syscall.WaitStatus
		for range 100 { // reaped within about a second: it is our child
			if pid, _ := syscall.Wait4(pi.pid, &ws, syscall.WNOHANG, nil); pid != 0 {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		out = append(out, Orphan{Leak: Leak{PID: pi.pid, Command: safetext.Line(pi.comm), Session: pi.session}, Ports: ports})
	}
	return out
}

func allProcs() map[int]procInfo {
	out := map[int]procInfo{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pi, ok := readProc(pid); ok {
			out[pid] = pi
		}
	}
	return out
}

// hasToken reports whether pid inherited this adapter's EnvToken (environ is the
// environment it was started with; unreadable for zombies and other users' processes).
func (p *Process) hasToken(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	want := []byte(EnvToken + "=" + p.token)
	for _, kv := range bytes.Split(b, []byte{0}) {
		if bytes.Equal(kv, want) {
			return true
		}
	}
	return false
}

// descendants finds the adapter's descendants: its process tree (by parent links) and
// its process group, and every process carrying its token (which survives new sessions
// and lost parents).
func (p *Process) descendants() map[int]procInfo {
	procs := allProcs()
	children := map[int][]int{}
	for _, pi := range procs {
		children[pi.ppid] = append(children[pi.ppid], pi.pid)
	}
	out := map[int]procInfo{}
	var walk func(int)
	walk = func(pid int) {
		for _, c := range children[pid] {
			if _, seen := out[c]; !seen {
				out[c] = procs[c]
				walk(c)
			}
		}
	}
	walk(p.pid)
	self := os.Getpid()
	// Its cgroup holds every descendant, whatever it did to its session or environment.
	for _, pid := range cgroupMembers(p.cgroup) {
		if pi, ok := procs[pid]; ok && pid != p.pid && pid != self {
			if _, seen := out[pid]; !seen {
				out[pid] = pi
				walk(pid)
			}
		}
	}
	// An orphan reparented to the runner can be p's once p has exited (or if it was no
	// subreaper) and when it was forked while p lived. It is p's when no other adapter could
	// have orphaned it to the runner: each other one alive then was a subreaper that still
	// lives, whose orphans stay in its tree (a subreaper that has exited handed its tree to the
	// runner). One another adapter's Close found in its tree is that adapter's. Else p is one
	// candidate, and SweepOrphans names them all at the run's end.
	if p.born != 0 && (!p.shimmed || p.hasExited()) {
		for _, pi := range orphans(procs) {
			if _, seen := out[pi.pid]; seen || pi.pid == p.pid || pi.start < p.born {
				continue
			}
			if q := live.reservedBy(pi); q != nil && q != p {
				continue
			}
			mine := true
			for _, s := range live.at(pi.start) {
				mine = mine && (s.p == p || (s.shim && s.p != nil && !s.p.hasExited())) // p is nil once it died
			}
			if mine {
				out[pi.pid] = pi
				walk(pi.pid)
			} else {
				live.suspect(pi, p.cfg.Port)
			}
		}
	}
	for pid, pi := range procs {
		if _, seen := out[pid]; seen || pid == self || pid == p.pid {
			continue
		}
		// Its process group (members orphaned by its death included), or its token. Only a
		// process forked after the adapter can carry the token (it was made for this adapter
		// just before its start): the older ones, most of a busy machine's, are not read.
		if pi.pgrp == p.pid || (pi.start >= p.born && p.hasToken(pid)) {
			out[pid] = pi
			walk(pid)
		}
	}
	delete(out, p.pid)
	return out
}

// sweep kills every descendant still alive after the group kill, reports those outside
// the adapter's process group, and reaps the ones reparented to us. Bounded by killWait.
func (p *Process) sweep(known map[int]procInfo) []Leak {
	self := os.Getpid()
	var leaks []Leak
	reported := map[int]bool{}
	deadline := time.Now().Add(killWait)
	for {
		for pid, pi := range p.descendants() {
			known[pid] = pi
		}
		alive := 0
		for pid := range known {
			pi, ok := readProc(pid)
			if !ok || pi.pid == self {
				delete(known, pid)
				continue
			}
			if pi.state == 'Z' {
				if pi.ppid == self {
					var ws syscall.WaitStatus
					_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
				}
				continue
			}
			alive++
			if pi.pgrp != p.pid && !reported[pid] {
				reported[pid] = true
				leaks = append(leaks, Leak{PID: pid, Command: safetext.Line(pi.comm), Session: pi.session})
			}
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		if alive == 0 || time.Now().After(deadline) {
			return leaks
		}
		time.Sleep(5 * time.Millisecond)
	}
}
