// Package ports finds each port's adapter and gets it ready to run. A port that cannot be
// made ready is "not present" with a reason; it never counts as a pass.
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
	"strings"
	"syscall"
	"time"
)

// All is every port the suite knows, in report order.
var All = []string{"go", "python", "js", "java", "csharp"}

// NotPresent says why a port cannot run here.
type NotPresent struct {
	Port, Reason string
}

func (n *NotPresent) Error() string { return fmt.Sprintf("%s: not present: %s", n.Port, n.Reason) }

// Ready is a port whose adapter can be started.
type Ready struct {
	Port string
	Argv []string
}

// Prepare runs runners/<port>/prepare (build, venv, …) within timeout. Exit 0 with the
// adapter command on the last stdout line means ready; exit 3 means not present with the
// reason on stderr; anything else is not present with the prepare output's tail.
func Prepare(ctx context.Context, root, cache, port string, timeout time.Duration, env ...string) (*Ready, error) {
	script := filepath.Join(root, "runners", port, "prepare")
	if _, err := os.Stat(script); err != nil {
		return nil, &NotPresent{port, "no adapter in runners/" + port}
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", script)
	cmd.Dir = filepath.Join(root, "runners", port)
	cmd.Env = append(append(os.Environ(), "CONFORMANCE_CACHE="+cache, "CONFORMANCE_ROOT="+root), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		return nil, &NotPresent{port, fmt.Sprintf("prepare took longer than %s", timeout)}
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit) && exit.ExitCode() == 3:
		return nil, &NotPresent{port, cleanReason(port, lastLine(errb.String(), "prepare said not present"))}
	default:
		return nil, &NotPresent{port, "prepare failed: " + tailLines(errb.String(), 6)}
	}
	argv, perr := parseCommand(lastLine(out.String(), ""))
	if perr != nil {
		return nil, &NotPresent{port, "prepare printed no adapter command: " + perr.Error()}
	}
	return &Ready{Port: port, Argv: argv}, nil
}

// cleanReason drops a "not present:" prefix a script already wrote, so it is not said twice.
func cleanReason(port, r string) string {
	for _, p := range []string{port + " port not present:", "not present:"} {
		r = strings.TrimSpace(strings.TrimPrefix(r, p))
	}
	return r
}

// parseCommand accepts a JSON array of strings or a plain executable path.
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
	return []string{line}, nil
}

func lastLine(s, fallback string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if l := strings.TrimSpace(lines[len(lines)-1]); l != "" {
		return l
	}
	return fallback
}

func tailLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
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
