// Package adapter runs one port's adapter process and speaks the JSON-lines protocol to it.
// The runner owns all timing: every call has a deadline, and a broken adapter is killed
// and replaced rather than trusted again.
package adapter

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"toolnexus-conformance/schema"
)

// Response is one decoded protocol response.
type Response struct {
	ID       int            `json:"id"`
	OK       bool           `json:"ok"`
	Result   map[string]any `json:"result"`
	Error    *ErrorBody     `json:"error"`
	Warnings []string       `json:"warnings"`
}

// ErrorBody is the error a port reported for one request.
type ErrorBody struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// Broken says the adapter itself misbehaved (crashed, went silent, broke the protocol);
// the scenario in flight fails with it and the process is replaced.
type Broken struct {
	Port, Op, What string
	StderrTail     string
}

func (b *Broken) Error() string {
	msg := fmt.Sprintf("adapter %q %s during %s", b.Port, b.What, b.Op)
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
	Schema      *schema.Protocol
}

// Process is one live adapter. Calls are serialised: the protocol has one request in flight.
type Process struct {
	cfg    Config
	mu     sync.Mutex
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte
	done   chan struct{} // closed when the process has exited and been reaped
	stderr *tail
	nextID int
	broken error
}

// Start launches the adapter; it does not say hello.
func Start(cfg Config) (*Process, error) {
	if len(cfg.Argv) == 0 {
		return nil, fmt.Errorf("adapter %q: empty command", cfg.Port)
	}
	if cfg.CallTimeout <= 0 {
		cfg.CallTimeout = 15 * time.Second
	}
	p := &Process{cfg: cfg, stderr: newTail(64 * 1024)}
	cmd := exec.Command(cfg.Argv[0], cfg.Argv[1:]...)
	cmd.Env = append(os.Environ(), cfg.Env...)
	cmd.Dir = cfg.Dir
	// Own process group, so the adapter and anything it spawned die together.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stderr = p.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("adapter %q would not start: %w", cfg.Port, err)
	}
	p.cmd, p.stdin = cmd, stdin
	p.lines = make(chan []byte, 16)
	p.done = make(chan struct{})
	go p.readLines(stdout)
	return p, nil
}

func (p *Process) readLines(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 64*1024*1024)
	for sc.Scan() {
		p.lines <- append([]byte(nil), sc.Bytes()...)
	}
	close(p.lines)
	_ = p.cmd.Wait()
	close(p.done)
}

// Call sends one request and waits for its response, within the call deadline and ctx.
// A port-level error comes back as a Response with OK false; a *Broken error means the
// adapter must be replaced.
func (p *Process) Call(ctx context.Context, op string, args any) (*Response, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.broken != nil {
		return nil, p.broken
	}
	p.nextID++
	req := map[string]any{"id": p.nextID, "op": op}
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
	if _, err := p.stdin.Write(append(line, '\n')); err != nil {
		return nil, p.fail(op, "could not be written to ("+err.Error()+")")
	}
	timer := time.NewTimer(p.cfg.CallTimeout)
	defer timer.Stop()
	select {
	case got, ok := <-p.lines:
		if !ok {
			<-p.done
			return nil, p.fail(op, "exited ("+p.cmd.ProcessState.String()+")")
		}
		return p.decode(op, p.nextID, got)
	case <-timer.C:
		return nil, p.fail(op, fmt.Sprintf("did not answer within %s", p.cfg.CallTimeout))
	case <-ctx.Done():
		return nil, p.fail(op, "was abandoned ("+ctx.Err().Error()+")")
	}
}

func (p *Process) decode(op string, id int, line []byte) (*Response, error) {
	if p.cfg.Schema != nil {
		if err := p.cfg.Schema.ValidateResponse(op, line); err != nil {
			return nil, p.fail(op, fmt.Sprintf("broke the protocol (%v) with the line %s", err, clip(line, 400)))
		}
	}
	var r Response
	if err := json.Unmarshal(line, &r); err != nil {
		return nil, p.fail(op, fmt.Sprintf("wrote a line that is not protocol JSON: %s", clip(line, 400)))
	}
	if r.ID != id {
		return nil, p.fail(op, fmt.Sprintf("answered id %d to request %d", r.ID, id))
	}
	return &r, nil
}

// fail marks the process broken and kills it; the caller gets the reason with stderr.
func (p *Process) fail(op, what string) error {
	p.kill()
	b := &Broken{Port: p.cfg.Port, Op: op, What: what, StderrTail: p.stderr.String()}
	p.broken = b
	return b
}

// IsBroken reports whether the process must be replaced.
func (p *Process) IsBroken() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.broken != nil
}

// StderrTail is the last part of what the adapter wrote to stderr.
func (p *Process) StderrTail() string { return p.stderr.String() }

// MarkStderr returns a position; StderrSince returns what was written after it.
func (p *Process) MarkStderr() int64 { return p.stderr.Total() }

// StderrSince returns stderr written since mark (bounded by the tail buffer).
func (p *Process) StderrSince(mark int64) string { return p.stderr.Since(mark) }

func (p *Process) kill() {
	if p.cmd == nil || p.cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
	}
}

// Close asks the adapter to shut down, then makes sure its whole process group is gone.
func (p *Process) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.broken == nil {
		line := fmt.Sprintf(`{"id":%d,"op":"shutdown"}`+"\n", p.nextID+1)
		_, _ = p.stdin.Write([]byte(line))
		_ = p.stdin.Close()
		select {
		case <-p.done:
		case <-time.After(3 * time.Second):
		}
	}
	p.kill()
	if p.broken == nil {
		p.broken = errors.New("adapter closed")
	}
}

func clip(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}
