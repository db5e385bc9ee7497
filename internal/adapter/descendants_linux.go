package adapter

import (
	"bytes"
	"os"
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
