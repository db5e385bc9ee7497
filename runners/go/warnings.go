package main

import (
	"io"
	"log"
	"os"
	"strings"
)

// captureWarnings tees the standard logger (the library's warning sink) to a locked buffer
// during fn (a library goroutine may keep log.Writer()) and returns its non-empty lines.
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
