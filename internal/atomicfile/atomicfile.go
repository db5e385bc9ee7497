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
	"syscall"
)

// File is a file being written; Commit puts it in place, Abort drops it.
type File struct {
	*os.File
	path string
}

// Create starts writing path.
func Create(path string) (*File, error) {
	f, err := os.Create(fmt.Sprintf("%s.tmp-%d", path, os.Getpid()))
	if err != nil {
		return nil, err
	}
	return &File{File: f, path: path}, nil
}

// Commit flushes, closes and renames the file into place; on an error the file is dropped.
func (f *File) Commit() error {
	if err := errors.Join(f.Sync(), f.Close()); err != nil {
		_ = os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), f.path)
}

// Abort closes and removes the unfinished file.
func (f *File) Abort() {
	_ = f.Close()
	_ = os.Remove(f.Name())
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
