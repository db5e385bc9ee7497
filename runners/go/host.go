package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
)

// host is the callback channel (SPEC.md §3): a stub writes a callback on stdout and blocks on
// the answer from fd 3, under one lock, as the library may call from its own goroutines.
type host struct {
	mu      sync.Mutex
	out     *lockedWriter
	answers *bufio.Reader
	next    int
}

func newHost(out *lockedWriter) *host {
	return &host{out: out, answers: bufio.NewReaderSize(os.NewFile(3, "callback"), 1<<20)}
}

// call runs one host function in the runner and decodes the answer's value into v; it
// reports whether the runner asked for an in-place edit. The answer returns a value, edits
// the argument in place, or raises; this port has no suspension, so a suspend is a fault.
func (h *host) call(fn string, args map[string]any, v any) (bool, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.next++
	line, err := json.Marshal(map[string]any{"callback": h.next, "fn": fn, "args": args})
	if err == nil {
		err = h.out.writeLine(line)
	}
	if err == nil {
		line, err = h.answers.ReadBytes('\n')
	}
	if err != nil {
		return false, fmt.Errorf("adapter: %s callback: %w", fn, err)
	}
	var a struct {
		Callback     int
		Return, Edit json.RawMessage
		Raise        *string
		Suspend      json.RawMessage
	}
	if err := json.Unmarshal(line, &a); err != nil || a.Callback != h.next {
		return false, fmt.Errorf("adapter: bad answer to %s callback: %q", fn, line)
	}
	switch {
	case a.Raise != nil:
		return false, errors.New(*a.Raise)
	case a.Suspend != nil:
		return false, fmt.Errorf("adapter: the runner suspended %s, which this adapter cannot", fn)
	}
	value, inPlace := a.Return, false
	if a.Edit != nil {
		value, inPlace = a.Edit, true
	}
	if v != nil && len(value) > 0 {
		return inPlace, json.Unmarshal(value, v)
	}
	return inPlace, nil
}
