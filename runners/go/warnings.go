package main

import (
	"io"
	"log"
	"os"
	"strings"
)

// captureWarnings runs fn with the standard logger (the library's warning sink) teed to a
// buffer and stderr, and returns its non-empty lines; between requests warnings go to
// stderr only. The buffer is locked: a library goroutine may have kept log.Writer().
func captureWarnings(fn func()) []string {
	var sb strings.Builder
	buf := &lockedWriter{w: &sb}
	flags := log.Flags()
	log.SetFlags(0)
	log.SetOutput(io.MultiWriter(buf, os.Stderr))
	defer log.SetFlags(flags)
	fn()
	log.SetOutput(os.Stderr)
	buf.mu.Lock()
	defer buf.mu.Unlock()
	out := []string{}
	for _, line := range strings.Split(sb.String(), "\n") {
		if line = strings.TrimRight(line, "\r"); strings.TrimSpace(line) != "" {
			out = append(out, line)
		}
	}
	return out
}
