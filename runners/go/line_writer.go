package main

import (
	"io"
	"sync"
)

// lockedWriter keeps a response, a callback from a library goroutine and a warning line from
// interleaving.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

func (l *lockedWriter) writeLine(b []byte) error {
	_, err := l.Write(append(b, '\n'))
	return err
}
