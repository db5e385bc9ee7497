// Package atomicfile writes a file beside its final name and renames it in when complete, so
// a run killed mid-write, or a full disk, leaves the previous file (or none), never a
// truncated one.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// File is a file being written; Commit puts it in place, Abort drops it.
type File struct {
	*os.File
	path string
}

// pending are the unfinished files of this process, so a process that must quit before it
// finishes them (a second Ctrl-C) can remove them first (AbortPending).
var pending = struct {
	sync.Mutex
	names    map[string]bool
	quitting bool
}{names: map[string]bool{}}

// errQuitting: no file is started once AbortPending ran.
var errQuitting = errors.New("not written: the process is quitting")

// Create starts writing path.
func Create(path string) (*File, error) {
	pending.Lock()
	defer pending.Unlock()
	if pending.quitting {
		return nil, errQuitting
	}
	f, err := os.Create(fmt.Sprintf("%s.tmp-%d", path, os.Getpid()))
	if err != nil {
		return nil, err
	}
	pending.names[f.Name()] = true
	return &File{File: f, path: path}, nil
}

// Commit flushes, closes and renames the file into place; on an error the file is dropped.
func (f *File) Commit() error {
	if err := errors.Join(f.Sync(), f.Close()); err != nil {
		f.forget()
		return err
	}
	pending.Lock()
	defer pending.Unlock()
	if !pending.names[f.Name()] {
		return errQuitting // AbortPending removed it
	}
	delete(pending.names, f.Name())
	return os.Rename(f.Name(), f.path)
}

// Abort closes and removes the unfinished file.
func (f *File) Abort() {
	_ = f.Close()
	f.forget()
}

func (f *File) forget() {
	pending.Lock()
	defer pending.Unlock()
	delete(pending.names, f.Name())
	_ = os.Remove(f.Name())
}

// AbortPending removes every unfinished file of this process and refuses new ones: for a
// process about to exit before it could finish them.
func AbortPending() {
	pending.Lock()
	defer pending.Unlock()
	pending.quitting = true
	for name := range pending.names {
		_ = os.Remove(name)
	}
	clear(pending.names)
}

// Write writes path through write, atomically.
func Write(path string, write func(io.Writer) error) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// WriteBytes writes b to path, atomically.
func WriteBytes(path string, b []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// SweepDead removes the unfinished files (name.tmp-<pid>) a killed writer left in dir: those
// whose process is gone. A live process's file is its own, still being written.
func SweepDead(dir string) {
	left, _ := filepath.Glob(filepath.Join(dir, "*.tmp-*"))
	for _, p := range left {
		i := strings.LastIndex(p, ".tmp-")
		pid, err := strconv.Atoi(p[i+len(".tmp-"):])
		if err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			_ = os.Remove(p)
		}
	}
}
