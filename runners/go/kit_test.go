package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestHelloListsTheRegistry: hello lists every registered op once, sorted, and every area's slots.
func TestHelloListsTheRegistry(t *testing.T) {
	res := mustOK(t, call(t, newTestAdapter(t, nil), "hello", nil))
	var ops, slots []string
	for _, o := range res["ops"].([]any) {
		ops = append(ops, o.(string))
	}
	for _, s := range res["slots"].([]any) {
		slots = append(slots, s.(string))
	}
	if !slices.IsSorted(ops) || len(ops) != len(opIndex) {
		t.Errorf("hello ops %v: want the %d registered ops, sorted", ops, len(opIndex))
	}
	for _, ar := range areas {
		for name := range ar.ops {
			if !slices.Contains(ops, name) {
				t.Errorf("area %s's op %s missing from hello", ar.name, name)
			}
		}
		for _, s := range ar.slots {
			if !slices.Contains(slots, s) || !strings.Contains(s, ".") {
				t.Errorf("area %s's slot %q missing from hello or not <area>.<name>", ar.name, s)
			}
		}
	}
}

// TestRegisterTwiceFails: a second owner of an op or a slot stops the adapter at start.
func TestRegisterTwiceFails(t *testing.T) {
	for _, ar := range []area{{name: "dup-op", ops: map[string]opFunc{"zz.new": nil, "hello": nil}}, {name: "dup-slot", slots: []string{slotTool}}} {
		n, ops := len(areas), len(opIndex)
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("registering %s did not panic", ar.name)
				}
			}()
			registerArea(ar)
		}()
		if len(areas) != n || len(opIndex) != ops {
			t.Errorf("%s was registered, or some of its ops, despite the panic", ar.name)
		}
	}
}

// TestHandles: a handle is found by its type and name only, release closes and forgets it,
// closeAll closes what is left.
func TestHandles(t *testing.T) {
	h := newHandles()
	var closed []string
	keep(h, "x", &fakeStore{"one"}, func() { closed = append(closed, "one") })
	keep(h, "y", &fakeStore{"two"}, func() { closed = append(closed, "two") })
	if v, err := lookup[*fakeStore](h, "x"); err != nil || v.name != "one" {
		t.Fatalf("lookup x = %v, %v", v, err)
	}
	_, err := lookup[*strings.Builder](h, "x")
	if b := relay(err); b.Kind != "failed" || !strings.Contains(b.Message, "unknown builder handle x") {
		t.Errorf("a handle of another type was found or misreported: %+v", b)
	}
	release[*fakeStore](h, "x")
	if _, err := lookup[*fakeStore](h, "x"); err == nil || fmt.Sprint(closed) != "[one]" {
		t.Errorf("release: still found (%v) or closed %v", err, closed)
	}
	h.closeAll(time.Second)
	if fmt.Sprint(closed) != "[one two]" {
		t.Errorf("closeAll closed %v", closed)
	}
}

type fakeStore struct{ name string }
