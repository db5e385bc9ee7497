package kernel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
)

// Host functions (SPEC.md §3): the library calls a function its host gave it (a body
// transform, a hook, a host tool's execute, a recording HTTP client); the adapter relays the
// call to the runner as a slot, and the area that owns the slot answers it here, in Go, once
// for every port. The kernel records what each slot saw, per request.

// SlotFunc answers one slot call of an attempt; args are decoded with numbers kept as sent.
type SlotFunc func(a *Attempt, args map[string]any) adapter.Answer

// SlotCall is one call of a slot: its name, its arguments as the adapter sent them, and when
// the runner received it (the runner's clock, which the fakes share: a hook's place among
// the requests the fakes saw is read from these stamps).
type SlotCall struct {
	Slot string
	Args json.RawMessage
	At   time.Time
}

// Request is what the host functions saw during one request.
type Request struct {
	Op     string
	OK     bool // the request returned ok with a result
	Slots  []SlotCall
	closed bool
}

// slotRecord is every request's slot calls, in order.
type slotRecord struct {
	mu   sync.Mutex
	reqs []Request
}

func (r *slotRecord) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs = nil
}

func (r *slotRecord) begin(op string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs = append(r.reqs, Request{Op: op})
}

func (r *slotRecord) end(resp *adapter.Response) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if n := len(r.reqs); n > 0 {
		r.reqs[n-1].OK = resp.OK && resp.Result != nil
		r.reqs[n-1].closed = true
	}
}

// Requests are the attempt's requests that returned, each with the slot calls it made.
func (a *Attempt) Requests() []Request {
	a.slots.mu.Lock()
	defer a.slots.mu.Unlock()
	var out []Request
	for _, q := range a.slots.reqs {
		if q.closed {
			out = append(out, Request{Op: q.Op, OK: q.OK, Slots: append([]SlotCall(nil), q.Slots...)})
		}
	}
	return out
}

// answer serves one callback of the adapter: it records the call on the request in flight
// and hands it to the area that owns the slot.
func (a *Attempt) answer(fn string, raw json.RawMessage) adapter.Answer {
	a.slots.mu.Lock()
	if n := len(a.slots.reqs); n > 0 {
		a.slots.reqs[n-1].Slots = append(a.slots.reqs[n-1].Slots, SlotCall{fn, append(json.RawMessage(nil), raw...), time.Now()})
	}
	a.slots.mu.Unlock()
	var args map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // a body's numbers go back to the port as it sent them
	if err := dec.Decode(&args); err != nil {
		return adapter.Answer{Error: "runner: callback args are not an object: " + err.Error()}
	}
	f, ok := a.sc.lib.slot(fn)
	if !ok {
		return adapter.Answer{Error: fmt.Sprintf("runner: the scenario installed no %s host function", fn)}
	}
	return f(a, args)
}

// Decode decodes one recorded slot call's arguments (numbers kept as sent).
func (c SlotCall) Decode() map[string]any {
	var args map[string]any
	dec := json.NewDecoder(bytes.NewReader(c.Args))
	dec.UseNumber()
	_ = dec.Decode(&args)
	return args
}
