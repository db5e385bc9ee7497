package mcpfake

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
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

// StdioOptions shape what the stdio fake lists and how it misbehaves.
type StdioOptions struct {
	// ServerOptions choose the catalogue (CatalogueTools(Catalogue, true): stdio-only
	// tools included) and the handshake and tools/list delays.
	ServerOptions
	// PIDFile receives the process id first thing, before any delay.
	PIDFile string
	// StartDelay is slept before the server reads stdin: a server that starts slowly.
	// The sleep ignores stdin closing, as a real slow start would; a signal ends it.
	StartDelay time.Duration
	// ExitDelay is slept after stdin closed, before the process exits: a server that takes a
	// moment to shut down, so a client that does not wait for its child is seen returning
	// while the child still runs, however fast the machine.
	ExitDelay time.Duration
	// Stall is a Phase the server never answers; reaching it writes StalledFile(PIDFile).
	Stall string
	// Hang makes the process read and discard stdin and never answer, and keep running
	// after stdin closes: only a signal ends it.
	Hang bool
}

// StalledFile is where a stalling stdio fake records that a client reached its stall phase.
func StalledFile(pidFile string) string { return pidFile + ".stalled" }

// ListedFile is where a stdio fake that stalls nowhere records that a client sent tools/list.
func ListedFile(pidFile string) string { return pidFile + ".listed" }

// ServeStdioWith is ServeStdio with the catalogue and misbehaviours of opts. Calling the
// results catalogue's r_die ends the process at once with DieExitCode, answering nothing.
func ServeStdioWith(ctx context.Context, opts StdioOptions) error {
	if !ValidCatalogue(opts.Catalogue) {
		return fmt.Errorf("unknown catalogue %q", opts.Catalogue)
	}
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
		// Silent, but it records a client's initialize as reached, so a scenario can tell a
		// port that never got that far.
		go func() {
			sc := bufio.NewScanner(os.Stdin)
			sc.Buffer(make([]byte, 64*1024), 8<<20)
			for sc.Scan() {
				if opts.PIDFile != "" && carriesMethod(sc.Bytes(), PhaseInitialize) {
					_ = os.WriteFile(StalledFile(opts.PIDFile), []byte("initialize"), 0o644)
				}
			}
			_, _ = io.Copy(io.Discard, os.Stdin)
		}()
		<-ctx.Done()
		return nil
	}
	var transport mcp.Transport = &mcp.StdioTransport{}
	switch {
	case opts.Stall != "":
		// The stalled request is swallowed before the SDK sees it (the SDK answers
		// initialize itself), so the server stays silent but still ends on stdin EOF.
		transport = &mcp.IOTransport{
			Reader: &stallReader{r: bufio.NewReader(os.Stdin), method: opts.Stall, reached: func() {
				if opts.PIDFile != "" {
					_ = os.WriteFile(StalledFile(opts.PIDFile), []byte(opts.Stall), 0o644)
				}
			}},
			Writer: nopWriteCloser{os.Stdout},
		}
	case opts.PIDFile != "":
		// Every request passes; a tools/list is recorded, so a scenario can tell that the
		// client had listed this server (steps/quick.go).
		transport = &mcp.IOTransport{
			Reader: &stallReader{r: bufio.NewReader(os.Stdin), method: PhaseToolsList, pass: true, reached: func() {
				_ = os.WriteFile(ListedFile(opts.PIDFile), nil, 0o644)
			}},
			Writer: nopWriteCloser{os.Stdout},
		}
	}
	server, err := newServer(opts.ServerOptions, true, &toolEnv{die: func() { os.Exit(DieExitCode) }})
	if err != nil {
		return err
	}
	ss, err := server.Connect(ctx, transport, nil)
	if err != nil {
		return err
	}
	ended := make(chan error, 1)
	go func() { ended <- ss.Wait() }()
	select {
	case err := <-ended:
		if err == nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
			select {
			case <-time.After(opts.ExitDelay):
			case <-ctx.Done():
			}
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

// stallReader passes stdin through line by line, dropping every JSON-RPC line that calls
// method (reached is called for it), or only noting it when pass is set.
type stallReader struct {
	r       *bufio.Reader
	method  string
	pass    bool
	reached func()
	buf     []byte
}

func (s *stallReader) Read(p []byte) (int, error) {
	for len(s.buf) == 0 {
		line, err := s.r.ReadBytes('\n')
		if len(line) > 0 && carriesMethod(bytes.TrimSpace(line), s.method) {
			s.reached()
			if !s.pass {
				line = nil
			}
		}
		s.buf = line
		if err != nil && len(s.buf) == 0 {
			return 0, err
		}
	}
	n := copy(p, s.buf)
	s.buf = s.buf[n:]
	return n, nil
}

func (s *stallReader) Close() error { return nil }

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

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
