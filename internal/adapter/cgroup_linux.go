package adapter

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Each adapter starts inside a cgroup (v2) of its own when the machine lets the runner make
// one: every descendant stays a member whatever it does (setsid, an empty environment, a lost
// parent), so descendants are found by construction, not by a token they could drop. Where
// no cgroup can be made, the parent links, the process group and the token still find them.

var (
	cgroupBase  string // "<cgroup2 mount>/conformance-<pid>", "" when unusable
	cgroupRel   string // cgroupBase as /proc/<pid>/cgroup names it: "/conformance-<pid>"
	cgroupOnce  sync.Once
	cgroupCount atomic.Int64
)

// cgroupParent makes this run's cgroup folder once, or reports none.
func cgroupParent() string {
	cgroupOnce.Do(func() {
		mount := cgroup2Mount()
		if mount == "" || os.Getenv("CONFORMANCE_NO_CGROUP") != "" {
			return
		}
		sweepCgroups(mount)
		dir := filepath.Join(mount, fmt.Sprintf("conformance-%d", os.Getpid()))
		if err := os.Mkdir(dir, 0o755); err != nil && !os.IsExist(err) {
			return
		}
		if !usable(dir) {
			_ = os.Remove(dir)
			return
		}
		cgroupBase, cgroupRel = dir, strings.TrimPrefix(dir, mount)
	})
	return cgroupBase
}

// inAdapterCgroup says pid is in one of this run's adapter cgroups.
func inAdapterCgroup(pid int) bool {
	if cgroupParent() == "" { // through the Once: cgroupRel is set once, maybe by another goroutine
		return false
	}
	if cgroupRel == "" {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cgroup")
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if path, ok := strings.CutPrefix(line, "0::"); ok {
			return strings.HasPrefix(path, cgroupRel+"/")
		}
	}
	return false
}

// cgroup2Mount is where a cgroup2 file system is mounted (the unified hierarchy), "" if none.
func cgroup2Mount() string {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// … mount-point … - fstype source options
		left, right, ok := strings.Cut(sc.Text(), " - ")
		if !ok {
			continue
		}
		if fs := strings.Fields(right); len(fs) > 0 && fs[0] == "cgroup2" {
			if f := strings.Fields(left); len(f) > 4 {
				return f[4]
			}
		}
	}
	return ""
}

// newCgroup makes a cgroup for one adapter and returns its path and an open fd for
// SysProcAttr.CgroupFD; ok false when none can be had.
func newCgroup() (path string, fd int, ok bool) {
	parent := cgroupParent()
	if parent == "" {
		return "", -1, false
	}
	path = filepath.Join(parent, "adapter-"+strconv.FormatInt(cgroupCount.Add(1), 10))
	_ = os.Mkdir(parent, 0o755) // a run in this process before may have released it
	if err := os.Mkdir(path, 0o755); err != nil {
		return "", -1, false
	}
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		_ = os.Remove(path)
		return "", -1, false
	}
	return path, fd, true
}

// cgroupMembers lists the pids in a cgroup.
func cgroupMembers(path string) []int {
	b, err := os.ReadFile(filepath.Join(path, "cgroup.procs"))
	if err != nil {
		return nil
	}
	var out []int
	for _, l := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(l); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// removeCgroup kills what is left in it and removes it (a cgroup with members cannot be).
// Bounded by about a second.
func removeCgroup(path string) {
	if path == "" {
		return
	}
	for range 100 {
		err := os.Remove(path)
		if err == nil || os.IsNotExist(err) {
			return
		}
		_ = os.WriteFile(filepath.Join(path, "cgroup.kill"), []byte("1"), 0o644)
		time.Sleep(10 * time.Millisecond)
	}
}

// usable checks once that a child can be started into a cgroup here (clone into a cgroup
// needs a kernel and permissions a sandbox may not give).
func usable(dir string) bool {
	probe := filepath.Join(dir, "probe")
	if err := os.Mkdir(probe, 0o755); err != nil {
		return false
	}
	defer removeCgroup(probe)
	fd, err := syscall.Open(probe, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer syscall.Close(fd)
	self, err := os.Executable()
	if err != nil {
		return false
	}
	cmd := exec.Command(self, "-no-such-flag-for-a-probe")
	cmd.Env = []string{}
	cmd.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: fd}
	if err := cmd.Start(); err != nil {
		return false
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	return true
}

// sweepCgroups removes what runs that died left (kill -9): their members are killed.
func sweepCgroups(mount string) {
	dirs, _ := filepath.Glob(filepath.Join(mount, "conformance-*"))
	for _, d := range dirs {
		pid, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(d), "conformance-"))
		if err != nil || pid == os.Getpid() || syscall.Kill(pid, 0) != syscall.ESRCH {
			continue
		}
		subs, _ := filepath.Glob(filepath.Join(d, "*"))
		for _, s := range subs {
			if st, err := os.Stat(s); err == nil && st.IsDir() {
				removeCgroup(s)
			}
		}
		_ = os.Remove(d)
	}
}

// ReleaseCgroups removes this run's cgroup folder once its adapters are gone (the next
// run removes it anyway if this one dies first).
func ReleaseCgroups() {
	if cgroupBase != "" {
		_ = os.Remove(cgroupBase)
	}
}
