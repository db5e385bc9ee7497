package checkout

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/safetext"
)

// step runs one build command in dir within timeout, its output appended to log; on failure
// the error carries the log's tail, as the user would want to see it.
func step(ctx context.Context, timeout time.Duration, dir string, log *bytes.Buffer, env []string, name string, args ...string) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	fmt.Fprintf(log, "$ %s %s\n", name, strings.Join(args, " "))
	err := cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		return fmt.Errorf("%s %s took longer than %s", name, strings.Join(args, " "), timeout)
	}
	if err != nil {
		return fmt.Errorf("%s %s failed (%v): %s", name, strings.Join(args, " "), err, Tail(log.String(), 12))
	}
	return nil
}

// Tail is the last n non-empty lines of s, joined with " | " to fit a report cell. A build
// log is outside text: each line is escaped (package safetext) and capped, and so is the whole.
func Tail(s string, n int) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, strings.TrimRight(l, "\r"))
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	for i, l := range lines {
		lines[i] = safetext.Short(l, 300)
	}
	out := strings.Join(lines, " | ")
	if len(out) > 4<<10 {
		out = "…" + out[len(out)-4<<10:]
	}
	return out
}
