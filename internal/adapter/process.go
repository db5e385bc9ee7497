// Package adapter runs one port's adapter process and speaks the JSON-lines protocol to it.
// The runner owns all timing: every wait has a deadline, and a broken adapter is killed
// and replaced rather than trusted again. Nothing the adapter writes can block the runner:
// its pipes are read by goroutines that stop when the runner stops listening, lines are
// bounded (MaxLineBytes), and its exit is noticed even while an escaped child holds the pipes.
package adapter

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/errkind"
	"github.com/muthuishere/toolnexus-conformance/internal/safetext"
	"github.com/muthuishere/toolnexus-conformance/schema"
)

// Bounds on the waits around a call; each is short because it only covers the gap between
// two things the adapter does at once (exiting and closing its stdout).
const (
	// exitGrace is how long a line still in the pipe may take to arrive once the process exited.
	exitGrace = 200 * time.Millisecond
	// eofGrace is how long a process may take to exit once it closed its stdout.
	eofGrace = 500 * time.Millisecond
	// shutdownGrace is how long Close lets an adapter exit on its own after "shutdown".
	shutdownGrace = 3 * time.Second
	// killWait bounds the wait for the process group to die after SIGKILL.
	killWait = 2 * time.Second
)

// EnvToken is set in every adapter's environment to a value unique to that process, so its
// descendants can be found even after they left its process group or lost their parent.
const EnvToken = "CONFORMANCE_ADAPTER"

// Response is one decoded protocol response.
type Response struct {
	ID       int            `json:"id"`
	OK       bool           `json:"ok"`
	Result   map[string]any `json:"result"`
	Error    *ErrorBody     `json:"error"`
	Warnings []string       `json:"warnings"`
	// Crashes: what the library raised outside the call's result (an unhandled rejection, an
	// uncaught exception on a library thread) since the previous response.
	Crashes []string `json:"crashes,omitempty"`
}

// ErrorBody is the error a port reported for one request. The adapter relays Type, Message
// and Chain; Kind is the runner's judgement from the port's table (package errkind), or the
// adapter's own "unsupported" / "failed".
type ErrorBody struct {
	Kind    string          `json:"kind"`
	Message string          `json:"message"`
	Type    string          `json:"type,omitempty"`
	Chain   []errkind.Entry `json:"chain,omitempty"`
}

// Broken says the adapter itself misbehaved (crashed, went silent, broke the protocol);
// the scenario in flight fails with it and the process is replaced. Every text field is
// already escaped (package safetext).
type Broken struct {
	Port string
	Op   string // the request the fault is blamed on
	What string // the fault, as a sentence after the adapter's name
	// Leaks are processes that had left the adapter's process group; they were killed.
	Leaks      []Leak
	StderrTail string
	// Hung says it went silent: no answer (or no read of the request) within the deadline.
	Hung bool
}

func (b *Broken) Error() string {
	msg := fmt.Sprintf("adapter %q %s", b.Port, b.What)
	if len(b.Leaks) > 0 {
		msg += "; " + leakSentence(b.Leaks)
	}
	if b.StderrTail != "" {
		msg += "\n--- adapter stderr (tail) ---\n" + b.StderrTail
	}
	return msg
}

// Config says how to start one adapter.
type Config struct {
	Port        string
	Argv        []string
	Env         []string
	Dir         string
	CallTimeout time.Duration
	// StartTimeout bounds the first answer (hello): a JVM or CPython start on a loaded
	// machine is slow, and that is not an unresponsive adapter (default 60 s, never less
	// than CallTimeout).
	StartTimeout time.Duration
	Schema       *schema.Protocol
	// Errors judges the port's errors (nil: every port error is "failed").
	Errors *errkind.Table
	// Fork, when set, makes each adapter by a fork of a warm parent (fork_linux.go); nil, or
	// a fork server that failed, starts each by exec.
	Fork *ForkServer
}

// Process is one live adapter. Calls are serialised: the protocol has one request in flight.
type Process struct {
	cfg   Config
	token string
	pid   int
	born  uint64 // its fork time in clock ticks after boot (descendants_linux.go), 0 if unknown

	mu        sync.Mutex
	waitExit  func() // waits for the process to exit, sets exitState and closes exited
	exitState string // how it ended ("exit status 1", "signal: killed"), once exited is closed
	forked    bool   // made by the fork server, not by exec
	shimmed   bool   // a child subreaper (package shim): its orphans stay in its tree
	stdin     *os.File
	cb        *os.File // write end of the callback pipe (the adapter's fd 3)
	stdout    *os.File // read ends; closed when the runner stops listening
	stderrR   *os.File
	lines     chan item
	quit      chan struct{} // closed when the runner stops listening
	exited    chan struct{} // closed when the process has exited and been reaped
	errDone   chan struct{} // closed when the stderr copy ended
	stderr    *tail

	nextID         int
	lastOp         string // the last op answered, blamed for an extra line
	lastID         int
	broken         error
	closed         bool
	cgroup         string // the adapter's own cgroup, "" when it runs without one
	leaks          []Leak
	stopListenOnce sync.Once
}

// Start launches the adapter; it does not say hello.
func Start(cfg Config) (*Process, error) {
	if len(cfg.Argv) == 0 {
		return nil, fmt.Errorf("adapter %q: empty command", cfg.Port)
	}
	if cfg.CallTimeout <= 0 {
		cfg.CallTimeout = 15 * time.Second
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = 60 * time.Second
	}
	cfg.StartTimeout = max(cfg.StartTimeout, cfg.CallTimeout)
	becomeSubreaper()
	p := &Process{cfg: cfg, token: newToken(), stderr: newTail(64 * 1024), exited: make(chan struct{})}
	// Our own pipes (not exec's): Wait then returns when the process exits, even while a
	// child it left behind holds the other ends, and the read ends can be closed to stop.
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, err
	}
	cbR, cbW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW, errR, errW)
		return nil, err
	}
	env := append(append(withoutTNX(os.Environ()), cfg.Env...), EnvToken+"="+p.token, CallbackFDEnv+"=3")
	env = append(env, ContractEnv...)
	files := [4]*os.File{inR, outW, errW, cbR} // the adapter's fds 0-3
	// A fork server (fork_linux.go) makes the same process for milliseconds instead of a
	// runtime start; when it cannot, the plain start below does, and the run is told once.
	forked := false
	if cfg.Fork != nil {
		if err := p.startForked(cfg.Fork, env, files); err != nil {
			cfg.Fork.disable(err.Error())
		} else {
			forked = true
		}
	}
	if !forked {
		if err := p.startExec(env, files); err != nil {
			closeAll(inR, outW, errW, cbR, inW, outR, errR, cbW)
			return nil, err
		}
	}
	closeAll(inR, outW, errW, cbR)
	p.born = startTime(p.pid)
	p.stdin, p.stdout, p.stderrR, p.cb = inW, outR, errR, cbW
	p.lines = make(chan item, 4)
	p.quit = make(chan struct{})
	p.errDone = make(chan struct{})
	live.add(p)
	go p.waitExit()
	go p.readLines(outR)
	go func() {
		_, _ = io.Copy(p.stderr, errR)
		close(p.errDone)
	}()
	return p, nil
}

// startExec starts the adapter as a program of its own, with files as its fds 0-3.
func (p *Process) startExec(env []string, files [4]*os.File) error {
	cmd := exec.Command(p.cfg.Argv[0], p.cfg.Argv[1:]...)
	cmd.Env = env
	cmd.ExtraFiles = []*os.File{files[3]} // fd 3: host-function answers (callback.go)
	cmd.Dir = p.cfg.Dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = files[0], files[1], files[2]
	// Own process group, so the adapter and anything it spawned die together; and its own
	// cgroup where there is one (cgroup_linux.go), so no descendant can leave unseen.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p.shimmed = underShim(cmd) // a subreaper: what its descendants orphan stays in its tree
	cg, cgFD, inCgroup := newCgroup()
	if inCgroup {
		cmd.SysProcAttr.UseCgroupFD, cmd.SysProcAttr.CgroupFD = true, cgFD
	}
	err := cmd.Start()
	if inCgroup {
		_ = syscall.Close(cgFD)
	}
	if err != nil {
		removeCgroup(cg)
		return fmt.Errorf("adapter %q would not start: %s", p.cfg.Port, safetext.Line(err.Error()))
	}
	p.cgroup, p.pid = cg, cmd.Process.Pid
	p.waitExit = func() {
		_ = cmd.Wait()
		p.exitState = cmd.ProcessState.String()
		close(p.exited)
	}
	return nil
}

// Call sends one request and waits for its response, within the call deadline and ctx.
// A port-level error comes back as a Response with OK false; a *Broken error means the
// adapter must be replaced. A host function the library calls during op is refused.
func (p *Process) Call(ctx context.Context, op string, args any) (*Response, error) {
	return p.CallHost(ctx, op, args, nil)
}

// CallHost is Call with host answering the host functions the library calls during op.
func (p *Process) CallHost(ctx context.Context, op string, args any, host Host) (*Response, error) {
	return p.CallWithin(ctx, op, args, host, 0)
}

// CallTimeout is the call deadline the process was started with.
func (p *Process) CallTimeout() time.Duration { return p.cfg.CallTimeout }

// CallWithin is CallHost with its own deadline instead of the call deadline (0: the call
// deadline); a miss is the same hang, judged by the process in the same words.
func (p *Process) CallWithin(ctx context.Context, op string, args any, host Host, within time.Duration) (*Response, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.broken != nil {
		return nil, p.broken
	}
	if err := p.checkIdle(); err != nil {
		return nil, err
	}
	p.nextID++
	id := p.nextID
	req := map[string]any{"id": id, "op": op}
	if args != nil {
		req["args"] = args
	}
	line, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("harness: cannot encode %s request: %w", op, err)
	}
	if p.cfg.Schema != nil {
		if err := p.cfg.Schema.ValidateRequest(line); err != nil {
			return nil, fmt.Errorf("harness bug: %s request breaks the protocol schema: %v", op, err)
		}
	}
	deadline := p.cfg.CallTimeout
	if id == 1 {
		deadline = p.cfg.StartTimeout // the first request meets the runtime's start-up
	} else if within > 0 {
		deadline = within
	}
	timer := time.NewTimer(deadline)
	defer timer.Stop()
	// A full stdin pipe (an adapter that stopped reading) must not block past the deadline.
	_ = p.stdin.SetWriteDeadline(time.Now().Add(deadline))
	if _, err := p.stdin.Write(append(line, '\n')); err != nil {
		select {
		case <-p.exited:
			return nil, p.fail(op, fmt.Sprintf("exited (%s) before reading %s", p.status(), op))
		default:
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return nil, p.hang(op, fmt.Sprintf("did not read %s from its stdin within %s", op, deadline))
		}
		return nil, p.fail(op, fmt.Sprintf("could not be sent %s (%v)", op, err))
	}
	for {
		select {
		case it := <-p.lines:
			if it.err == nil && isCallback(it.line) {
				if err := p.answer(op, it.line, host); err != nil {
					return nil, err
				}
				continue
			}
			return p.receive(op, id, it)
		case <-p.exited:
			// It may have answered just before exiting: the line can still be in the pipe.
			select {
			case it := <-p.lines:
				return p.receive(op, id, it)
			case <-time.After(exitGrace):
				return nil, p.fail(op, fmt.Sprintf("exited (%s) during %s", p.status(), op))
			}
		case <-timer.C:
			return nil, p.hang(op, fmt.Sprintf("did not answer %s within %s", op, deadline))
		case <-ctx.Done():
			return nil, p.fail(op, fmt.Sprintf("was abandoned during %s (%v)", op, ctx.Err()))
		}
	}
}

// checkIdle blames anything the adapter wrote between two requests on the request it had
// answered last, before the next request could be blamed for it.
func (p *Process) checkIdle() error {
	select {
	case it := <-p.lines:
		return p.strayItem(it)
	default:
	}
	select {
	case <-p.exited:
		return p.fail(p.lastOp, fmt.Sprintf("exited (%s) after answering %s", p.status(), p.lastOpName()))
	default:
	}
	return nil
}

func (p *Process) strayItem(it item) error {
	after := p.lastOpName()
	switch {
	case it.err == nil:
		return p.fail(p.lastOp, fmt.Sprintf("wrote an extra line after answering %s (request %d): %s", after, p.lastID, clip(it.line, 400)))
	case errors.Is(it.err, io.EOF):
		return p.afterEOF(p.lastOp, "after answering "+after)
	default:
		return p.readFault(p.lastOp, it.err, "after answering "+after)
	}
}

func (p *Process) lastOpName() string {
	if p.lastOp == "" {
		return "nothing (before its first request)"
	}
	return p.lastOp
}

// receive turns what the stdout reader delivered during op into a response or a fault.
func (p *Process) receive(op string, id int, it item) (*Response, error) {
	switch {
	case it.err == nil:
		return p.decode(op, id, it.line)
	case errors.Is(it.err, io.EOF):
		return nil, p.afterEOF(op, "during "+op)
	default:
		return nil, p.readFault(op, it.err, "during "+op)
	}
}

// afterEOF: stdout is closed. Either the process is exiting (a crash) or it lives on
// without a way to answer; both are decided within eofGrace.
func (p *Process) afterEOF(op, when string) error {
	select {
	case <-p.exited:
		return p.fail(op, fmt.Sprintf("exited (%s) %s", p.status(), when))
	case <-time.After(eofGrace):
		return p.fail(op, "closed its stdout but kept running "+when)
	}
}

func (p *Process) readFault(op string, err error, when string) error {
	if errors.Is(err, errLineTooLong) {
		return p.fail(op, fmt.Sprintf("wrote a line longer than the %d MiB maximum %s", MaxLineBytes>>20, when))
	}
	return p.fail(op, fmt.Sprintf("could not be read %s (%v)", when, err))
}

func (p *Process) decode(op string, id int, line []byte) (*Response, error) {
	// A second answer to the previous request is that request's fault, not this one's.
	var head struct {
		ID *int `json:"id"`
	}
	if json.Unmarshal(line, &head) == nil && head.ID != nil && *head.ID == p.lastID && p.lastID != 0 && *head.ID != id {
		return nil, p.fail(p.lastOp, fmt.Sprintf("wrote an extra line after answering %s (request %d): %s", p.lastOp, p.lastID, clip(line, 400)))
	}
	if p.cfg.Schema != nil {
		if err := p.cfg.Schema.ValidateResponse(op, line); err != nil {
			return nil, p.fail(op, fmt.Sprintf("broke the protocol during %s (%s) with the line %s", op, safetext.Line(err.Error()), clip(line, 400)))
		}
	}
	var r Response
	if err := json.Unmarshal(line, &r); err != nil {
		return nil, p.fail(op, fmt.Sprintf("wrote a line that is not protocol JSON during %s: %s", op, clip(line, 400)))
	}
	if r.ID != id {
		return nil, p.fail(op, fmt.Sprintf("answered id %d to request %d (%s)", r.ID, id, op))
	}
	p.lastOp, p.lastID = op, id
	if !r.OK && r.Error != nil && r.Error.Kind == "" {
		r.Error.Kind = p.cfg.Errors.Kind(op, r.Error.Type, r.Error.Message, r.Error.Chain)
	}
	return &r, nil
}

// fail marks the process broken and kills it; the caller gets the reason with stderr and
// whatever escaped the process group (killed too).
func (p *Process) fail(op, what string) error {
	leaks := p.kill()
	b := &Broken{Port: p.cfg.Port, Op: op, What: what, Leaks: leaks, StderrTail: p.stderr.String()}
	p.broken = b
	return b
}

// hang is fail for an adapter that went silent.
func (p *Process) hang(op, what string) error {
	err := p.fail(op, what)
	p.broken.(*Broken).Hung = true
	return err
}

func (p *Process) status() string {
	select {
	case <-p.exited:
		return p.exitState
	default:
		return "still running"
	}
}

// Forked reports whether a fork server made the process (else it was started by exec).
func (p *Process) Forked() bool { return p.forked }

// IsBroken reports whether the process must be replaced.
func (p *Process) IsBroken() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.broken != nil
}

// Leaks lists the processes the adapter left running outside its process group when it
// was shut down in order (Close on a healthy adapter). They have been killed; each is a
// fault of the implementation. Leaks found when a broken adapter was killed are in its
// Broken error instead.
func (p *Process) Leaks() []Leak {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Leak(nil), p.leaks...)
}

// StderrTail is the last part of what the adapter wrote to stderr, escaped.
func (p *Process) StderrTail() string { return p.stderr.String() }

// MarkStderr returns a position; StderrSince returns what was written after it.
func (p *Process) MarkStderr() int64 { return p.stderr.Total() }

// StderrSince returns stderr written since mark (bounded by the tail buffer), escaped.
func (p *Process) StderrSince(mark int64) string { return p.stderr.Since(mark) }

// kill ends the process group and every descendant that escaped it, reaps what it can, and
// stops the pipe readers. It returns the escaped descendants. Bounded by about 2×killWait.
func (p *Process) kill() []Leak { return p.killKnown(nil) }

// killKnown is kill with descendants found earlier (known) added to those found now.
func (p *Process) killKnown(known map[int]procInfo) []Leak {
	before := p.descendants() // while the adapter may still link its children to it
	for pid, pi := range known {
		before[pid] = pi
	}
	_ = syscall.Kill(-p.pid, syscall.SIGKILL)
	select {
	case <-p.exited:
	case <-time.After(killWait):
	}
	leaks := p.sweep(before)
	removeCgroup(p.cgroup)
	live.remove(p)
	// With the escaped holders gone the pipes end; give stderr a moment to be read fully.
	select {
	case <-p.errDone:
	case <-time.After(exitGrace):
	}
	p.stopListening()
	return leaks
}

func (p *Process) stopListening() {
	p.stopListenOnce.Do(func() {
		close(p.quit)
		closeAll(p.stdin, p.stdout, p.stderrR, p.cb)
	})
}

// Close asks the adapter to shut down, then makes sure its whole process group, and any
// descendant that left it, is gone. Bounded by shutdownGrace plus the kill's bound.
func (p *Process) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.closed = true
	if p.broken == nil {
		// Its tree before it exits: once it has, what it orphaned is the runner's child.
		known := p.descendants()
		live.reserve(p, known)
		defer live.release(p)
		line := fmt.Sprintf(`{"id":%d,"op":"shutdown"}`+"\n", p.nextID+1)
		_ = p.stdin.SetWriteDeadline(time.Now().Add(time.Second))
		_, _ = p.stdin.Write([]byte(line))
		_ = p.stdin.Close()
		select {
		case <-p.exited:
		case <-time.After(shutdownGrace):
		}
		p.leaks = append(p.leaks, p.killKnown(known)...)
		p.broken = errors.New("adapter closed")
		return
	}
	p.kill()
}

// liveSet is the adapters started and not yet killed, for KillAll, and when every adapter of
// the run lived, to tell which implementation an orphan can be from (descendants_linux.go).
type liveSet struct {
	mu    sync.Mutex
	procs map[*Process]bool
	spans []span
	// suspected: the implementations of exited adapters that may have left an orphan, by the
	// orphan's pid and start (descendants_linux.go).
	suspected map[[2]uint64][]string
	// reserved: the descendants an adapter's Close found before it shut down, by pid and
	// start, which no other adapter's sweep may take (descendants_linux.go).
	reserved map[[2]uint64]*Process
}

// span is one adapter's life in clock ticks after boot; died is 0 while it lives. shim: it was
// a subreaper, so no orphan of its reached the runner while it lived.
type span struct {
	port       string
	born, died uint64
	p          *Process
	shim       bool
}

var live = liveSet{procs: map[*Process]bool{}, suspected: map[[2]uint64][]string{}, reserved: map[[2]uint64]*Process{}}

func (l *liveSet) add(p *Process) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.procs[p] = true
	l.spans = append(l.spans, span{port: p.cfg.Port, born: p.born, p: p, shim: p.shimmed})
}

func (l *liveSet) remove(p *Process) {
	died := nowTicks()
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.procs, p)
	for i := range l.spans {
		if l.spans[i].p == p {
			l.spans[i].died, l.spans[i].p = died, nil
		}
	}
}

// hasExited says the adapter process has exited.
func (p *Process) hasExited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// at lists the adapters alive at tick t (unknown ticks: none).
func (l *liveSet) at(t uint64) []span {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []span
	for _, s := range l.spans {
		if s.born != 0 && s.born <= t && (s.died == 0 || t <= s.died) {
			out = append(out, s)
		}
	}
	return out
}

// KillAll sends SIGKILL to every live adapter's process group and cgroup, without waiting:
// for a runner about to exit at once (a second Ctrl-C), which must not leave a hung adapter
// running. What left the group and has no cgroup is not found here (Close's sweep finds it).
func KillAll() {
	live.mu.Lock()
	defer live.mu.Unlock()
	for p := range live.procs {
		_ = syscall.Kill(-p.pid, syscall.SIGKILL)
		if p.cgroup != "" {
			_ = os.WriteFile(p.cgroup+"/cgroup.kill", []byte("1"), 0o644)
		}
	}
}

func clip(b []byte, n int) string {
	if len(b) > n {
		return safetext.Line(string(b[:n])) + fmt.Sprintf("… (%d bytes)", len(b))
	}
	return safetext.Line(string(b))
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		if f != nil {
			_ = f.Close()
		}
	}
}

func newToken() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return fmt.Sprintf("%d-%s", os.Getpid(), hex.EncodeToString(b))
}

// Leak is a descendant of an adapter found outside its process group after the adapter
// was done; the runner killed it.
type Leak struct {
	PID     int
	Command string // escaped
	Session int
}

// Orphan is a leak no one adapter could be blamed for: forked while adapters of each of Ports
// lived, it was found only at the run's end (SweepOrphans) and killed.
type Orphan struct {
	Leak
	Ports []string
}

func (l Leak) String() string {
	return fmt.Sprintf("pid %d (%s, session %d)", l.PID, l.Command, l.Session)
}

func leakSentence(leaks []Leak) string {
	var s []string
	for _, l := range leaks {
		s = append(s, l.String())
	}
	if len(leaks) == 1 {
		return "1 process it started had left its process group and was killed: " + s[0]
	}
	return fmt.Sprintf("%d processes it started had left its process group and were killed: %s", len(leaks), strings.Join(s, ", "))
}

// Discard retires a healthy process without a word to it: a scenario about to be tried
// again gets a fresh adapter, with nothing left over from the attempt that failed.
func (p *Process) Discard() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.broken == nil {
		p.broken = &Broken{Port: p.cfg.Port, What: "was retired so that the next attempt of its scenario meets a fresh adapter"}
	}
}
