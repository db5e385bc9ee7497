package mcpfake

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves NewServer over stdin/stdout. It first writes the process
// id to pidFile (unless empty) so the suite can later check, from outside,
// that a port's teardown ended this process. It returns nil when stdin closes
// or ctx ends, and the error otherwise.
func ServeStdio(ctx context.Context, pidFile string) error {
	return ServeStdioWith(ctx, StdioOptions{PIDFile: pidFile})
}

// StdioOptions shape how the stdio fake misbehaves.
type StdioOptions struct {
	// PIDFile receives the process id first thing, before any delay.
	PIDFile string
	// StartDelay is slept before the server reads stdin: a server that starts slowly.
	// The sleep ignores stdin closing, as a real slow start would; a signal ends it.
	StartDelay time.Duration
	// Stall is a Phase the server never answers; reaching it writes StalledFile(PIDFile).
	Stall string
	// Hang makes the process read and discard stdin and never answer, and keep running
	// after stdin closes: only a signal ends it.
	Hang bool
}

// StalledFile is where a stalling stdio fake records that a client reached its stall phase.
func StalledFile(pidFile string) string { return pidFile + ".stalled" }

// ServeStdioWith is ServeStdio with the misbehaviours of opts.
func ServeStdioWith(ctx context.Context, opts StdioOptions) error {
	if opts.PIDFile != "" {
		if err := writePID(opts.PIDFile); err != nil {
			return err
		}
	}
	if opts.StartDelay > 0 {
		t := time.NewTimer(opts.StartDelay)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil
		}
	}
	if opts.Hang {
		go func() { _, _ = io.Copy(io.Discard, os.Stdin) }()
		<-ctx.Done()
		return nil
	}
	server := NewServer()
	if opts.Stall != "" {
		server.AddReceivingMiddleware(stallMiddleware(opts.Stall, func() {
			if opts.PIDFile != "" {
				_ = os.WriteFile(StalledFile(opts.PIDFile), []byte(opts.Stall), 0o644)
			}
		}))
	}
	ss, err := server.Connect(ctx, &mcp.StdioTransport{}, nil)
	if err != nil {
		return err
	}
	ended := make(chan error, 1)
	go func() { ended <- ss.Wait() }()
	select {
	case err := <-ended:
		if err == nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
			return nil
		}
		return err
	case <-ctx.Done():
		// Closing may hang on a read from stdin that the OS will not
		// interrupt; the process is about to exit, so wait only briefly.
		go func() { _ = ss.Close() }()
		select {
		case <-ended:
		case <-time.After(time.Second):
		}
		return nil
	}
}

// stallMiddleware holds every request for method until its context ends (the session
// closing); reached is called first.
func stallMiddleware(method string, reached func()) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, m string, req mcp.Request) (mcp.Result, error) {
			if m != method {
				return next(ctx, m, req)
			}
			reached()
			<-ctx.Done()
			return nil, ctx.Err()
		}
	}
}

// writePID writes the pid through a rename, so a reader polling the file
// never sees it half-written.
func writePID(path string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".pid-*")
	if err != nil {
		return err
	}
	_, werr := tmp.WriteString(strconv.Itoa(os.Getpid()))
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// ProcessGone reports whether pid no longer runs: no such process, or a
// zombie (exited, not yet reaped by its parent, which for teardown purposes
// is gone). It reads /proc/<pid>/stat, falling back to signal 0 where there
// is no /proc.
func ProcessGone(pid int) bool {
	if pid <= 0 {
		return true
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err == nil {
		// The state follows the command name, which is in parentheses and
		// may itself contain ") ", hence the last one.
		i := strings.LastIndexByte(string(data), ')')
		if i < 0 {
			return false
		}
		fields := strings.Fields(string(data[i+1:]))
		return len(fields) > 0 && (fields[0] == "Z" || fields[0] == "X")
	}
	if _, serr := os.Stat("/proc/self/stat"); serr == nil {
		return true // /proc works, and this process is not in it
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	return errors.Is(p.Signal(syscall.Signal(0)), os.ErrProcessDone)
}
