package toolnexus

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"time"
)

const defaultBashTimeout = 60 * time.Second

// bashWaitDelay bounds how long a killed command may take to be reaped.
const bashWaitDelay = 2 * time.Second

func bashTool() Tool {
	return builtinTool("bash",
		"Run one shell command and return its combined stdout and stderr. A non-zero exit or a timeout is an error.",
		objectSchema(map[string]any{
			"command":     prop("string", "The command line to run"),
			"workdir":     prop("string", "Directory to run in (default: the current directory)"),
			"timeout":     prop("number", "Milliseconds the command may run; 60000 when absent"),
			"description": prop("string", "A few words on what the command does"),
		}, "command"),
		runBash)
}

// shellPath prefers bash (the tool's name promises its syntax) and falls back to sh.
func shellPath() string {
	if p, err := exec.LookPath("bash"); err == nil {
		return p
	}
	return "sh"
}

func runBash(args map[string]any, tc *ToolContext) ToolResult {
	command, err := strArg(args, "command", true)
	if err == nil && strings.TrimSpace(command) == "" {
		err = errors.New(`"command" is empty`)
	}
	if err != nil {
		return failf("bash: %v", err)
	}
	workdir, err := strArg(args, "workdir", false)
	if err != nil {
		return failf("bash: %v", err)
	}
	if _, err := strArg(args, "description", false); err != nil {
		return failf("bash: %v", err)
	}
	limit, err := durationArg(args, "timeout", time.Millisecond, defaultBashTimeout, tc)
	if err != nil {
		return failf("bash: %v", err)
	}

	// Output goes to a file, not a pipe: a background child that keeps a pipe open would
	// hold Wait up, while a file lets Wait return when the shell exits.
	out, err := os.CreateTemp("", "toolnexus-bash-*")
	if err != nil {
		return failf("bash: %v", err)
	}
	defer os.Remove(out.Name())
	defer out.Close()

	parent := callContext(tc)
	ctx, cancel := context.WithTimeout(parent, limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, shellPath(), "-c", command)
	cmd.Dir = workdir
	cmd.Stdin = nil // reads see end of input; a command never waits on ours
	cmd.Stdout, cmd.Stderr = out, out
	newProcessGroup(cmd)
	cmd.Cancel = func() error { return killProcessGroup(cmd) }
	cmd.WaitDelay = bashWaitDelay
	if err := cmd.Start(); err != nil {
		return failf("bash: %v", err)
	}
	runErr := cmd.Wait()
	// Whatever the shell left running in its group goes with it: no child outlives a call.
	_ = killProcessGroup(cmd)

	text, _ := os.ReadFile(out.Name())
	output := string(text)
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded) && parent.Err() == nil:
		return failf("%sbash: command timed out after %d ms", withNewline(output), limit.Milliseconds())
	case parent.Err() != nil:
		return failf("%sbash: command cancelled: %v", withNewline(output), parent.Err())
	}
	var exitErr *exec.ExitError
	if errors.As(runErr, &exitErr) {
		code := exitErr.ExitCode()
		res := failf("%sbash: command failed with exit code %d", withNewline(output), code)
		if code < 0 {
			res = failf("%sbash: command ended by %v", withNewline(output), exitErr.ProcessState)
		}
		res.Metadata = map[string]any{"exitCode": code}
		return res
	}
	if runErr != nil {
		return failf("%sbash: %v", withNewline(output), runErr)
	}
	return ToolResult{Output: output, Metadata: map[string]any{"exitCode": 0}}
}

// withNewline ends non-empty output with a newline, so a status line appended after it
// starts a line of its own.
func withNewline(s string) string {
	if s == "" || strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}
