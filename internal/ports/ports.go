// Package ports reads each port's manifest (runners/<port>/port.json, manifest.go), resolves
// implementation names, and gets a port's adapter ready to run. A port whose prepare exits 3
// is "not present" with a reason (never a pass, never a failure); any other prepare failure
// is "broken": a red result with the prepare output's tail.
package ports

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/safetext"
)

// NotPresent says why a port cannot run here.
type NotPresent struct {
	Port, Reason string
}

func (n *NotPresent) Error() string { return fmt.Sprintf("%s: not present: %s", n.Port, n.Reason) }

// Broken says a port's prepare failed other than by exit 3 (a build error, a crash, no adapter
// command, too slow): the implementation is there but cannot run, which is a red result.
type Broken struct {
	Port, Reason string
	// LogTail is the end of what prepare wrote to stderr.
	LogTail string
}

func (b *Broken) Error() string { return fmt.Sprintf("%s: broken: %s", b.Port, b.Reason) }

// Stopped says prepare was cut short because the whole run was stopped (interrupt, run
// timeout); Cause is the run context's cause.
type Stopped struct {
	Port  string
	Cause error
}

func (s *Stopped) Error() string { return fmt.Sprintf("%s: prepare stopped: %v", s.Port, s.Cause) }

// PrepareImplementation prepares one implementation: its Absent reason, then its port's
// prepare script with the implementation's environment (then env, which wins).
func PrepareImplementation(ctx context.Context, root, cache string, im Implementation, timeout time.Duration, env ...string) (*Ready, error) {
	if im.Absent != "" {
		return nil, &NotPresent{im.Name, im.Absent}
	}
	r, err := Prepare(ctx, root, cache, im.Port, timeout, append(append([]string(nil), im.Env...), env...)...)
	// Errors name the implementation, not the runners/ folder that served it.
	var np *NotPresent
	var b *Broken
	var st *Stopped
	switch {
	case errors.As(err, &np):
		np.Port = im.Name
	case errors.As(err, &b):
		b.Port = im.Name
	case errors.As(err, &st):
		st.Port = im.Name
	}
	return r, err
}

// Ready is a port whose adapter can be started.
type Ready struct {
	Port string
	Argv []string
	// ForkArgv, when prepare printed a "fork-server: <JSON array>" line before the command,
	// starts the port's fork server (internal/adapter/fork_linux.go): a warm parent that makes
	// each adapter by a fork instead of a runtime start.
	ForkArgv []string
}

// forkPrefix starts prepare's optional fork-server line.
const forkPrefix = "fork-server: "

// Prepare runs runners/<port>/prepare (build, venv, …) within timeout. Exit 0 with the
// adapter command on the last stdout line means ready; exit 3 means not present with the
// reason on stderr; anything else is *Broken with the prepare output's tail. When ctx ends
// first the error is *Stopped.
func Prepare(ctx context.Context, root, cache, port string, timeout time.Duration, env ...string) (*Ready, error) {
	out, errb, err := runPrepare(ctx, root, cache, port, timeout, nil, env)
	if err != nil {
		return nil, err
	}
	argv, perr := parseCommand(rawLastLine(out))
	if perr != nil {
		return nil, &Broken{port, "prepare printed no adapter command: " + perr.Error(), TailLines(errb, 20)}
	}
	r := &Ready{Port: port, Argv: argv}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), forkPrefix); ok {
			fork, ferr := parseCommand(rest)
			if ferr != nil || !strings.HasPrefix(strings.TrimSpace(rest), "[") {
				return nil, &Broken{port, "prepare printed a bad fork-server line: " + safetext.Short(rest, 200), TailLines(errb, 20)}
			}
			r.ForkArgv = fork
		}
	}
	return r, nil
}

// BuildCheckout runs `runners/<port>/prepare --build-checkout dir`: the port's one recipe
// for building a checkout's copy of it (port.json "build": true). It prints NAME=value lines,
// the environment prepare and the adapter then run with; exit 3 is not present (a tool is
// missing), any other failure *Broken. log is everything it wrote on stderr.
func BuildCheckout(ctx context.Context, root, cache, port, dir string, timeout time.Duration, env ...string) (vars []string, log string, err error) {
	out, log, err := runPrepare(ctx, root, cache, port, timeout, []string{"--build-checkout", dir}, env)
	if err != nil {
		return nil, log, err
	}
	if strings.TrimSpace(out) == "" {
		return nil, log, &Broken{port, "prepare --build-checkout printed no NAME=value line", TailLines(log, 20)}
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		l = strings.TrimRight(l, "\r")
		name, _, ok := strings.Cut(l, "=")
		if !ok || !envNameRe.MatchString(name) {
			return nil, log, &Broken{port, fmt.Sprintf("prepare --build-checkout printed %q, not NAME=value", safetext.Short(l, 200)), TailLines(log, 20)}
		}
		vars = append(vars, l)
	}
	return vars, log, nil
}

var envNameRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// runPrepare runs the port's prepare with args and returns its stdout and stderr, or the
// *NotPresent, *Broken or *Stopped its ending says.
func runPrepare(ctx context.Context, root, cache, port string, timeout time.Duration, args, env []string) (string, string, error) {
	script := filepath.Join(root, "runners", port, "prepare")
	if _, err := os.Stat(script); err != nil {
		return "", "", &NotPresent{port, "no adapter in runners/" + port}
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", append([]string{script}, args...)...)
	cmd.Dir = filepath.Join(root, "runners", port)
	cmd.Env = append(append(os.Environ(), "CONFORMANCE_CACHE="+cache, "CONFORMANCE_ROOT="+root), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	stderr := errb.String()
	if parent.Err() != nil {
		return "", stderr, &Stopped{port, context.Cause(parent)}
	}
	if ctx.Err() == context.DeadlineExceeded {
		return "", stderr, &Broken{port, fmt.Sprintf("prepare took longer than %s (--prepare-timeout)", timeout), TailLines(stderr, 20)}
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out.String(), stderr, nil
	case errors.As(err, &exit) && exit.ExitCode() == 3:
		return "", stderr, &NotPresent{port, cleanReason(port, lastLine(stderr, "prepare said not present"))}
	case errors.As(err, &exit):
		return "", stderr, &Broken{port, fmt.Sprintf("prepare failed (exit %d): %s", exit.ExitCode(),
			lastLine(stderr, "no output")), TailLines(stderr, 20)}
	default:
		return "", stderr, &Broken{port, "prepare could not run: " + err.Error(), TailLines(stderr, 20)}
	}
}

// cleanReason drops a "not present:" prefix a script already wrote, so it is not said twice.
func cleanReason(port, r string) string {
	for _, p := range []string{port + " port not present:", "not present:"} {
		r = strings.TrimSpace(strings.TrimPrefix(r, p))
	}
	return r
}

// parseCommand accepts a JSON array of strings, or one absolute path to an executable file:
// any other last line (a build log's last words, say) is an error, never run as a program.
func parseCommand(line string) ([]string, error) {
	line = strings.TrimSpace(line)
	if line == "" {
		return nil, errors.New("empty output")
	}
	if strings.HasPrefix(line, "[") {
		var argv []string
		if err := json.Unmarshal([]byte(line), &argv); err != nil || len(argv) == 0 {
			return nil, fmt.Errorf("bad JSON array %q", line)
		}
		return argv, nil
	}
	if st, err := os.Stat(line); err != nil || !filepath.IsAbs(line) || st.IsDir() || st.Mode()&0o111 == 0 {
		return nil, fmt.Errorf("the last line %q is neither a JSON array nor the absolute path of an executable", safetext.Short(line, 200))
	}
	return []string{line}, nil
}

// maxLine and maxTail cap what a prepare script's output may put in a reason or a log tail:
// those reach the terminal, report.md (a GitHub job summary) and report.html.
const (
	maxLine = 500
	maxTail = 8 << 10
)

// lastLine is the output's last line, escaped and capped (the adapter command is read from
// the raw line by the caller, never from this).
func lastLine(s, fallback string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if l := strings.TrimSpace(lines[len(lines)-1]); l != "" {
		return safetext.Short(l, maxLine)
	}
	return fallback
}

func rawLastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// TailLines is the output's last n lines, each escaped and capped, the whole capped too.
func TailLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	for i, l := range lines {
		lines[i] = safetext.Short(l, maxLine)
	}
	out := strings.Join(lines, "\n")
	if len(out) > maxTail {
		out = "…" + out[len(out)-maxTail:]
	}
	return out
}

// Root finds the repository root: the nearest parent holding SPEC.md and runners/.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if fileExists(filepath.Join(dir, "SPEC.md")) && fileExists(filepath.Join(dir, "runners")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("cannot find the harness root (a folder with SPEC.md and runners/); run from inside the repository or pass --root")
		}
		dir = parent
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// Harness is the repository root found from the working directory and its port manifests.
func Harness() (string, *Set, error) {
	root, err := Root()
	if err != nil {
		return "", nil, err
	}
	set, err := Load(root)
	return root, set, err
}
