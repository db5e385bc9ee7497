package main

import (
	"bytes"
	"io"
	"log"
	"os"
	"regexp"
	"strings"
	"sync"
)

// lockedBuffer is written by the log package and, possibly, by a goroutine
// that kept log.Writer(); the lock keeps the race detector and the bytes honest.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends under the lock.
func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns everything written so far.
func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// datePrefix is what the standard logger prepends when someone restores its flags.
var datePrefix = regexp.MustCompile(`^\d{4}/\d{2}/\d{2} (\d{2}:\d{2}:\d{2}(\.\d+)? )?`)

// captureWarnings runs fn with the standard logger (the library's warning
// sink) redirected to a buffer, teed to stderr so the runner's log keeps them,
// and returns the non-empty lines. Output is restored to stderr afterwards, so
// warnings from background goroutines between requests land on stderr only.
func captureWarnings(fn func()) []string {
	buf := &lockedBuffer{}
	flags := log.Flags()
	log.SetFlags(0)
	log.SetOutput(io.MultiWriter(buf, os.Stderr))
	defer func() {
		log.SetOutput(os.Stderr)
		log.SetFlags(flags)
	}()
	fn()
	log.SetOutput(os.Stderr)
	return splitWarnings(buf.String())
}

// splitWarnings turns captured log text into one warning per non-empty line.
func splitWarnings(text string) []string {
	out := []string{}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(datePrefix.ReplaceAllString(line, ""), "\r")
		if strings.TrimSpace(line) != "" {
			out = append(out, line)
		}
	}
	return out
}
