package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// A write that fails leaves the previous file whole and no temp file behind.
func TestFailedWriteKeepsThePreviousFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.md")
	if err := WriteBytes(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	err := Write(path, func(w io.Writer) error {
		_, _ = w.Write([]byte("half"))
		return errors.New("disk full")
	})
	if err == nil {
		t.Fatal("the failed write reported success")
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("the file holds %q after a failed write; want the previous %q", b, "old")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*.tmp-*")); len(left) > 0 {
		t.Errorf("temp files left: %v", left)
	}
}

// The next writer removes what a killed one left half-written, never a live one's file.
func TestSweepDeadRemovesOnlyDeadWritersFiles(t *testing.T) {
	dir := t.TempDir()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	deadFile := filepath.Join(dir, fmt.Sprintf("results.json.tmp-%d", dead.Process.Pid))
	liveFile := filepath.Join(dir, fmt.Sprintf("report.md.tmp-%d", os.Getppid()))
	for _, p := range []string{deadFile, liveFile} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	SweepDead(dir)
	if _, err := os.Stat(deadFile); !os.IsNotExist(err) {
		t.Errorf("a dead writer's file is still there: %v", err)
	}
	if _, err := os.Stat(liveFile); err != nil {
		t.Errorf("a live writer's file was removed: %v", err)
	}
}

// A process quitting before it finishes its files removes them (AbortPending), and a file it
// had not finished cannot be committed after that, nor a new one started.
func TestAbortPendingRemovesUnfinishedFiles(t *testing.T) {
	t.Cleanup(func() { pending.Lock(); pending.quitting = false; pending.Unlock() })
	dir := t.TempDir()
	f, err := Create(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteBytes(filepath.Join(dir, "done.md"), []byte("x")); err != nil {
		t.Fatal(err)
	}
	AbortPending()
	if left, _ := filepath.Glob(filepath.Join(dir, "*.tmp-*")); len(left) > 0 {
		t.Errorf("unfinished files left: %v", left)
	}
	if err := f.Commit(); err == nil {
		t.Error("a file removed by AbortPending was committed")
	}
	if _, err := os.Stat(filepath.Join(dir, "done.md")); err != nil {
		t.Errorf("a finished file was touched: %v", err)
	}
	if _, err := Create(filepath.Join(dir, "late.md")); err == nil {
		t.Error("a file was started after AbortPending")
	}
}
