package main

import (
	"reflect"
	"strings"
	"time"
)

// handles are the objects that live between requests, found by their Go type and the handle
// the runner named them with: an area reaches another area's client or toolkit here, by the
// port's type, never through that area's code.
type handles struct {
	kept map[handleKey]held
}

type handleKey struct {
	t    reflect.Type
	name string
}

// held is one object and what closes it (nil: nothing to close).
type held struct {
	v     any
	close func()
}

func newHandles() *handles { return &handles{kept: map[handleKey]held{}} }

// keep stores v under name, replacing what was there without closing it, as a host that
// reassigns its variable would.
func keep[T any](h *handles, name string, v T, close func()) {
	h.kept[handleKey{reflect.TypeFor[T](), name}] = held{v, close}
}

// lookup finds the T kept under name; an unknown handle is the adapter's fault.
func lookup[T any](h *handles, name string) (T, error) {
	if e, ok := h.kept[handleKey{reflect.TypeFor[T](), name}]; ok {
		return e.v.(T), nil
	}
	var zero T
	return zero, adapterErr("failed", "adapter: unknown "+what[T]()+" handle "+name)
}

// release closes the T kept under name, if any, and forgets it.
func release[T any](h *handles, name string) {
	k := handleKey{reflect.TypeFor[T](), name}
	if e, ok := h.kept[k]; ok {
		if e.close != nil {
			e.close()
		}
		delete(h.kept, k)
	}
}

// what names a handle's kind in a message: *toolnexus.Client is "client".
func what[T any]() string {
	t := reflect.TypeFor[T]()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return strings.ToLower(t.Name()[:1]) + t.Name()[1:]
}

// closeAll closes what is kept (stdio children must not outlive the adapter); bounded,
// because the runner kills the process group anyway.
func (h *handles) closeAll(limit time.Duration) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, e := range h.kept {
			if e.close != nil {
				e.close()
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(limit):
	}
}
