package adapter

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The test binary plays a fork server (FAKE_FORK_SERVER=<mode>) in Go: it cannot fork, so it
// execs itself as the chaos adapter with the received fds, which is the same protocol on the
// wire (fds over SCM_RIGHTS, pid after setsid, the gate, the exit report).
const (
	envFakeFork = "FAKE_FORK_SERVER"
	envFakeGate = "FAKE_FORK_GATE" // set in its children: wait on fd 4 first
)

// fakeForkMain is called by TestMain in the fake server and in its children.
func fakeForkMain() bool {
	if os.Getenv(envFakeGate) != "" {
		gate := os.NewFile(4, "gate")
		b := make([]byte, 1)
		if n, _ := gate.Read(b); n != 1 || b[0] != 'g' {
			os.Exit(0)
		}
		gate.Close()
		return false // go on as the chaos adapter
	}
	mode := os.Getenv(envFakeFork)
	if mode == "" {
		return false
	}
	l, err := net.ListenUnix("unixpacket", &net.UnixAddr{Name: os.Args[len(os.Args)-1], Net: "unixpacket"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	switch mode {
	case "never-ready":
		select {}
	case "exit-after-ready":
		fmt.Println("ready")
		os.Exit(0)
	}
	fmt.Println("ready")
	go func() { _, _ = io.Copy(io.Discard, os.Stdin); os.Exit(0) }() // EOF: the runner is done
	for {
		conn, err := l.AcceptUnix()
		if err != nil {
			os.Exit(1)
		}
		go fakeServe(mode, conn)
	}
}

func fakeServe(mode string, conn *net.UnixConn) {
	if mode == "silent" {
		select {}
	}
	buf, oob := make([]byte, 1<<20), make([]byte, 256)
	n, oobn, _, _, err := conn.ReadMsgUnix(buf, oob)
	if err != nil {
		return
	}
	var fds []int
	if msgs, err := syscall.ParseSocketControlMessage(oob[:oobn]); err == nil && len(msgs) == 1 {
		fds, _ = syscall.ParseUnixRights(&msgs[0])
	}
	if mode == "refuse" || len(fds) != 5 {
		_, _ = conn.Write([]byte(`{"error":"the fork server has threads: MainThread, stray"}`))
		return
	}
	var req struct {
		Env []string `json:"env"`
		Cwd string   `json:"cwd"`
	}
	_ = json.Unmarshal(buf[:n], &req)
	files := make([]*os.File, 5)
	for i, fd := range fds {
		files[i] = os.NewFile(uintptr(fd), "fd")
	}
	exe, _ := os.Executable()
	cmd := exec.Command(exe)
	cmd.Env = append(req.Env, envFakeGate+"=1")
	cmd.Dir = req.Cwd
	cmd.Stdin, cmd.Stdout, cmd.Stderr = files[0], files[1], files[2]
	cmd.ExtraFiles = files[3:]
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	for _, f := range files {
		f.Close()
	}
	if err != nil {
		_, _ = conn.Write([]byte(`{"error":"start failed"}`))
		return
	}
	_, _ = fmt.Fprintf(conn, `{"pid":%d}`, cmd.Process.Pid)
	if mode == "die-after-pid" {
		time.Sleep(100 * time.Millisecond)
		os.Exit(0) // its child is left to the runner, a subreaper
	}
	_ = cmd.Wait()
	_, _ = fmt.Fprintf(conn, `{"exit":%d}`, int(cmd.ProcessState.Sys().(syscall.WaitStatus)))
	conn.Close()
}

// saidLines collects what a fork server tells the run.
type saidLines struct {
	mu    sync.Mutex
	lines []string
}

func (s *saidLines) say(l string) { s.mu.Lock(); s.lines = append(s.lines, l); s.mu.Unlock() }
func (s *saidLines) all() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.lines, "\n")
}

func startFake(t *testing.T, mode string) (*ForkServer, *saidLines) {
	t.Helper()
	exe, _ := os.Executable()
	said := &saidLines{}
	fs, err := StartForkServer("chaos", []string{exe}, []string{envFakeFork + "=" + mode, "GORACE=atexit_sleep_ms=0"}, "", said.say)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fs.Close)
	return fs, said
}

func startVia(t *testing.T, fs *ForkServer, mode, dir string) *Process {
	t.Helper()
	s, err := loadSchema()
	if err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	p, err := Start(Config{Port: "chaos", Argv: []string{exe}, Env: chaosEnv(mode), Dir: dir,
		CallTimeout: 10 * time.Second, StartTimeout: 10 * time.Second, Schema: s, Fork: fs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

func hello(t *testing.T, p *Process) {
	t.Helper()
	if r, err := p.Call(context.Background(), "hello", nil); err != nil || !r.OK {
		t.Fatalf("hello: %+v %v", r, err)
	}
}

// A forked adapter gets the environment and cwd a plain start would, leads its own process
// group (the group kill reaches it), sits in its own cgroup where the machine has them, and is
// reaped once closed: nothing tells it from a plain one but the time it took.
func TestForkedAdapterIsAPlainOneInAllButCost(t *testing.T) {
	fs, said := startFake(t, "good")
	dir := t.TempDir()
	p := startVia(t, fs, "good", dir)
	hello(t, p)
	if !p.Forked() || fs.Forked() != 1 {
		t.Fatalf("not forked (said: %s)", said.all())
	}
	env, _ := os.ReadFile(fmt.Sprintf("/proc/%d/environ", p.pid))
	for _, want := range append([]string{EnvToken + "=" + p.token, CallbackFDEnv + "=3"}, ContractEnv...) {
		if !slices.ContainsFunc(bytes.Split(env, []byte{0}), func(kv []byte) bool { return string(kv) == want }) {
			t.Errorf("the child's environment lacks %s", want)
		}
	}
	if cwd, _ := os.Readlink(fmt.Sprintf("/proc/%d/cwd", p.pid)); cwd != dir {
		t.Errorf("cwd %q, want %q", cwd, dir)
	}
	if pgid, _ := syscall.Getpgid(p.pid); pgid != p.pid {
		t.Errorf("process group %d, want its own (%d)", pgid, p.pid)
	}
	if p.cgroup != "" && !slices.Contains(cgroupMembers(p.cgroup), p.pid) {
		t.Errorf("not in its cgroup %s: %v", p.cgroup, cgroupMembers(p.cgroup))
	}
	pid := p.pid
	p.Close()
	if p.status() != "exit status 0" {
		t.Errorf("status %q, want the server's report of exit 0", p.status())
	}
	if _, alive := readProc(pid); alive {
		t.Errorf("pid %d is still there (a zombie?) after Close", pid)
	}
}

// A killed forked adapter (a call cut at its bound) is reported killed, and reaped.
func TestForkedAdapterKilledOnAHang(t *testing.T) {
	fs, _ := startFake(t, "good")
	s, _ := loadSchema()
	exe, _ := os.Executable()
	p, err := Start(Config{Port: "chaos", Argv: []string{exe}, Env: chaosEnv("hang"),
		CallTimeout: 300 * time.Millisecond, StartTimeout: 5 * time.Second, Schema: s, Fork: fs})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	hello(t, p) // "hang" answers hello, then nothing
	_, err = p.Call(context.Background(), "toolkit.close", closeArgs)
	if !p.Forked() || err == nil || !strings.Contains(err.Error(), "did not answer") {
		t.Fatalf("forked %v, err %v", p.Forked(), err)
	}
	if p.status() != "signal: killed" {
		t.Errorf("status %q", p.status())
	}
	if _, alive := readProc(p.pid); alive {
		t.Errorf("pid %d left after the kill", p.pid)
	}
}

// A server that is gone, silent, refuses or never gets ready costs one line and a plain start,
// never a hang; later starts do not try it again.
func TestForkServerFaultsFallBackToAPlainStart(t *testing.T) {
	defer func(r, s time.Duration) { forkReady, forkSpawn = r, s }(forkReady, forkSpawn)
	forkReady, forkSpawn = 500*time.Millisecond, 300*time.Millisecond
	for mode, why := range map[string]string{
		"exit-after-ready": "exited",
		"silent":           "no pid from the server",
		"refuse":           "refused: the fork server has threads",
		"never-ready":      "not ready within",
	} {
		t.Run(mode, func(t *testing.T) {
			fs, said := startFake(t, mode)
			if mode == "exit-after-ready" {
				<-fs.exited
			}
			began := time.Now()
			p := startVia(t, fs, "good", "")
			hello(t, p)
			if p.Forked() {
				t.Fatal("forked by a faulty server")
			}
			if took := time.Since(began); took > 3*time.Second {
				t.Errorf("the fallback took %s", took)
			}
			if got := said.all(); !strings.Contains(got, "fork server off: ") || !strings.Contains(got, why) {
				t.Errorf("said %q, want the reason %q", got, why)
			}
			q := startVia(t, fs, "good", "")
			hello(t, q)
			if q.Forked() || strings.Count(said.all(), "\n") != 0 {
				t.Errorf("second start: forked %v, said %q", q.Forked(), said.all())
			}
		})
	}
}

// A server that dies after the fork leaves its child to the runner (a subreaper): its exit is
// still seen, within the kill's bound, and it is reaped.
func TestForkedAdapterOutlivesItsServer(t *testing.T) {
	fs, _ := startFake(t, "die-after-pid")
	p := startVia(t, fs, "good", "")
	hello(t, p)
	<-fs.exited
	hello(t, p) // still serving
	pid := p.pid
	began := time.Now()
	p.Close()
	if took := time.Since(began); took > shutdownGrace+2*killWait {
		t.Errorf("Close took %s", took)
	}
	if !strings.HasPrefix(p.status(), "exit status 0") {
		t.Errorf("status %q, want our own wait's exit status 0", p.status())
	}
	if _, alive := readProc(pid); alive {
		t.Errorf("pid %d not reaped", pid)
	}
}

// Close ends the server (EOF on its stdin) and removes its socket's directory.
func TestForkServerCloseLeavesNothing(t *testing.T) {
	fs, _ := startFake(t, "good")
	p := startVia(t, fs, "good", "")
	hello(t, p)
	p.Close()
	fs.Close()
	select {
	case <-fs.exited:
	default:
		t.Error("the server is still running after Close")
	}
	if _, err := os.Stat(filepath.Dir(fs.sock)); !os.IsNotExist(err) {
		t.Errorf("socket dir left: %v", err)
	}
	if _, alive := readProc(fs.pid); alive {
		t.Errorf("server pid %s not reaped", strconv.Itoa(fs.pid))
	}
}
