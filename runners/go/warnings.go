package main

import (
	"io"
	"log"
	"os"
	"strings"
	"sync"
)

// logBuffer is written by the log package and, possibly, by a goroutine that kept
// log.Writer(); the lock keeps the race detector and the bytes honest.
type logBuffer struct {
	mu sync.Mutex
	sb strings.Builder
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sb.Write(p)
}

// captureWarnings runs fn with the standard logger (the library's warning sink) teed to a
// buffer and stderr, and returns its non-empty lines; between requests warnings go to
// stderr only.
func captureWarnings(fn func()) []string {
	buf := &logBuffer{}
	flags := log.Flags()
	log.SetFlags(0)
	log.SetOutput(io.MultiWriter(buf, os.Stderr))
	defer func() {
		log.SetOutput(os.Stderr)
		log.SetFlags(flags)
	}()
	fn()
	log.SetOutput(os.Stderr)
	buf.mu.Lock()
	defer buf.mu.Unlock()
	out := []string{}
	for _, line := range strings.Split(buf.sb.String(), "\n") {
		if line = strings.TrimRight(line, "\r"); strings.TrimSpace(line) != "" {
			out = append(out, line)
		}
	}
	return out
}
