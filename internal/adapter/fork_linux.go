package adapter

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/safetext"
)

// A fork server is a warm parent of one port's adapters (runners/python/forkserver.py speaks
// this): it has imported the library once and forks a fresh adapter per request, so a
// replacement costs milliseconds, not a runtime start. The runner makes the child's pipes, as
// for a plain start, and passes them over a SOCK_SEQPACKET Unix socket (SCM_RIGHTS) with the
// environment and cwd; the child leads its own session (the group kill reaches it), waits on
// a gate until the runner has put it into its cgroup, then runs the adapter. The server reaps
// it and reports its wait status on the same connection. Anything wrong with the server turns
// it off for the rest of the run, said once, and every start from then on is a plain one.

// Bounds on the waits around the fork server: the whole point is that a fork is fast, so a
// server that is slow is as good as broken.
var (
	forkReady = 20 * time.Second // its own start: one runtime start with the library's import
	forkSpawn = 5 * time.Second  // one request: connect, send, the child's pid
)

// ForkServer is one port's warm parent, shared by the processes of its pool.
type ForkServer struct {
	port   string
	say    func(string)
	dir    string // private temp dir holding the socket
	sock   string
	cmd    *exec.Cmd
	pid    int
	cgroup string
	life   *os.File // the server's stdin: closing it ends the server
	stderr *tail
	ready  chan struct{} // closed when the server said "ready"
	exited chan struct{} // closed when it exited and was reaped
	began  time.Time

	mu     sync.Mutex
	dead   string // why it is off, "" while it is on
	forked atomic.Int64
}

// StartForkServer starts argv + [socket] for port with the adapters' environment (without
// their per-process token) in dir; it returns at once, and the first fork waits for the
// server to say ready. say gets the one line that tells the run the server is off.
func StartForkServer(port string, argv, env []string, dir string, say func(string)) (*ForkServer, error) {
	if len(argv) == 0 {
		return nil, errors.New("empty fork server command")
	}
	becomeSubreaper()
	tmp, err := os.MkdirTemp("", fmt.Sprintf("conformance-fork-%d-", os.Getpid())) // the next run sweeps it if this one is killed
	if err != nil {
		return nil, err
	}
	s := &ForkServer{port: port, say: say, dir: tmp, sock: filepath.Join(tmp, "s"), stderr: newTail(16 << 10),
		ready: make(chan struct{}), exited: make(chan struct{}), began: time.Now()}
	cmd := exec.Command(argv[0], append(argv[1:len(argv):len(argv)], s.sock)...)
	cmd.Env = append(append(append(withoutTNX(os.Environ()), env...), CallbackFDEnv+"=3"), ContractEnv...)
	cmd.Dir = dir
	cmd.Stderr = s.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		_ = os.RemoveAll(tmp)
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		_ = os.RemoveAll(tmp)
		return nil, err
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// Its own cgroup beside the adapters': moving a child to its adapter's cgroup then stays
	// inside this run's folder, which the runner owns.
	cg, cgFD, inCgroup := newCgroup()
	if inCgroup {
		cmd.SysProcAttr.UseCgroupFD, cmd.SysProcAttr.CgroupFD = true, cgFD
	}
	err = cmd.Start()
	if inCgroup {
		_ = syscall.Close(cgFD)
	}
	if err != nil {
		removeCgroup(cg)
		_ = os.RemoveAll(tmp)
		return nil, fmt.Errorf("fork server would not start: %s", safetext.Line(err.Error()))
	}
	s.cmd, s.pid, s.cgroup, s.life = cmd, cmd.Process.Pid, cg, stdin.(*os.File)
	go func() {
		r := bufio.NewReader(stdout)
		line, _ := r.ReadString('\n')
		if strings.TrimSpace(line) == "ready" {
			close(s.ready)
		}
		_, _ = r.WriteTo(s.stderr) // nothing more is expected; never let it block the server
	}()
	go func() {
		_ = cmd.Wait()
		close(s.exited)
	}()
	return s, nil
}

// Forked is how many adapters the server made.
func (s *ForkServer) Forked() int { return int(s.forked.Load()) }

// usable waits (bounded) for the server to be ready and says why it cannot be used, "" if it can.
func (s *ForkServer) usable() string {
	s.mu.Lock()
	dead := s.dead
	s.mu.Unlock()
	if dead != "" {
		return dead
	}
	// Ready first: once the deadline is past, its timer would race a ready server.
	select {
	case <-s.ready:
	default:
		select {
		case <-s.ready:
		case <-s.exited:
			return "it exited before it was ready: " + s.lastWords()
		case <-time.After(time.Until(s.began.Add(forkReady))):
			return fmt.Sprintf("it was not ready within %s: %s", forkReady, s.lastWords())
		}
	}
	select {
	case <-s.exited:
		return "it exited: " + s.lastWords()
	default:
		return ""
	}
}

func (s *ForkServer) lastWords() string {
	t := strings.TrimSpace(s.stderr.String())
	if t == "" {
		return "no stderr"
	}
	lines := strings.Split(t, "\n")
	return safetext.Short(lines[len(lines)-1], 300)
}

// disable turns the server off for good and says so once; it is killed in the background.
func (s *ForkServer) disable(why string) {
	s.mu.Lock()
	first := s.dead == ""
	if first {
		s.dead = why
	}
	s.mu.Unlock()
	if !first {
		return
	}
	if s.say != nil {
		s.say(fmt.Sprintf("fork server off: %s; adapters start plainly", safetext.Short(why, 400)))
	}
	go s.stop()
}

// Close ends the server: EOF on its stdin, then a kill; its temp dir and cgroup go with it.
// Bounded by about 2×killWait. The adapters it made are the runner's to kill, not its.
func (s *ForkServer) Close() {
	s.mu.Lock()
	if s.dead == "" {
		s.dead = "closed"
	}
	s.mu.Unlock()
	s.stop()
}

func (s *ForkServer) stop() {
	_ = s.life.Close()
	select {
	case <-s.exited:
	case <-time.After(killWait):
		_ = syscall.Kill(-s.pid, syscall.SIGKILL)
		select {
		case <-s.exited:
		case <-time.After(killWait):
		}
	}
	removeCgroup(s.cgroup)
	_ = os.RemoveAll(s.dir)
}

// startForked makes p by the fork server, with files as its fds 0-3. On an error nothing of
// the attempt is left running (the child, if there was one, is killed) and the caller starts
// p plainly.
func (p *Process) startForked(s *ForkServer, env []string, files [4]*os.File) error {
	if why := s.usable(); why != "" {
		return errors.New(why)
	}
	gateR, gateW, err := os.Pipe()
	if err != nil {
		return err
	}
	defer gateR.Close()
	defer gateW.Close() // EOF on the gate: a child not let through exits at once
	dir := p.cfg.Dir
	if dir == "" {
		if dir, err = os.Getwd(); err != nil {
			return err
		}
	}
	req, err := json.Marshal(map[string]any{"env": env, "cwd": dir})
	if err != nil {
		return err
	}
	c, err := net.DialTimeout("unixpacket", s.sock, forkSpawn)
	if err != nil {
		return fmt.Errorf("connect: %v", err)
	}
	conn := c.(*net.UnixConn)
	_ = conn.SetDeadline(time.Now().Add(forkSpawn))
	fds := []int{int(files[0].Fd()), int(files[1].Fd()), int(files[2].Fd()), int(files[3].Fd()), int(gateR.Fd())}
	if _, _, err := conn.WriteMsgUnix(req, syscall.UnixRights(fds...), nil); err != nil {
		conn.Close()
		return fmt.Errorf("send: %v", err)
	}
	pid, err := readPID(conn)
	if err != nil {
		conn.Close()
		return err
	}
	cg, err := joinCgroup(pid)
	if err == nil {
		_, err = gateW.Write([]byte("g"))
	}
	if err != nil {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		removeCgroup(cg)
		conn.Close() // the server reaps it
		return fmt.Errorf("child %d: %v", pid, err)
	}
	_ = conn.SetDeadline(time.Time{})
	p.pid, p.cgroup, p.forked = pid, cg, true
	p.waitExit = func() {
		p.exitState = p.waitForked(conn)
		close(p.exited)
	}
	s.forked.Add(1)
	return nil
}

// readPID reads the server's answer to a request: the child's pid, or why there is none.
func readPID(conn *net.UnixConn) (int, error) {
	buf := make([]byte, 8<<10)
	n, err := conn.Read(buf)
	if err != nil {
		return 0, fmt.Errorf("no pid from the server: %v", err)
	}
	var m struct {
		PID   int    `json:"pid"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal(buf[:n], &m); err != nil {
		return 0, fmt.Errorf("the server answered %s", clip(buf[:n], 200))
	}
	if m.Error != "" {
		return 0, fmt.Errorf("the server refused: %s", safetext.Short(m.Error, 300))
	}
	if m.PID <= 1 {
		return 0, fmt.Errorf("the server answered pid %d", m.PID)
	}
	return m.PID, nil
}

// joinCgroup puts a forked child into a cgroup of its own, as a plain start is born into one
// (none where the machine gives none: then neither has one).
func joinCgroup(pid int) (string, error) {
	cg, fd, ok := newCgroup()
	if !ok {
		return "", nil
	}
	_ = syscall.Close(fd)
	if err := os.WriteFile(filepath.Join(cg, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0o644); err != nil {
		removeCgroup(cg)
		return "", fmt.Errorf("cannot join its cgroup: %v", err)
	}
	return cg, nil
}

// waitForked waits for the server's report of the child's end. A server that dies first
// leaves the child to us (the runner is a subreaper): then /proc says when it is gone.
func (p *Process) waitForked(conn *net.UnixConn) string {
	defer conn.Close()
	buf := make([]byte, 8<<10)
	for {
		n, err := conn.Read(buf)
		if err != nil {
			break
		}
		var m struct {
			Exit *int `json:"exit"`
		}
		if json.Unmarshal(buf[:n], &m) == nil && m.Exit != nil {
			return waitString(syscall.WaitStatus(*m.Exit))
		}
	}
	for {
		pi, ok := readProc(p.pid)
		if !ok || pi.start != p.born {
			return "gone (the fork server ended before it could report how)"
		}
		if pi.state == 'Z' && pi.ppid == os.Getpid() {
			var ws syscall.WaitStatus
			if _, err := syscall.Wait4(p.pid, &ws, 0, nil); err == nil {
				return waitString(ws)
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitString says how a process ended as os.ProcessState.String does.
func waitString(ws syscall.WaitStatus) string {
	switch {
	case ws.Exited():
		return "exit status " + strconv.Itoa(ws.ExitStatus())
	case ws.Signaled():
		s := "signal: " + ws.Signal().String()
		if ws.CoreDump() {
			s += " (core dumped)"
		}
		return s
	default:
		return fmt.Sprintf("wait status %#x", int(ws))
	}
}
