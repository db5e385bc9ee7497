package kernel

import (
	"context"
	"fmt"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/schema"
)

// Area is one area of the contract (steps/<area>/): its steps, its host functions (slots)
// and what it opens for a whole run. cmd/conformance hands the engine the list.
type Area struct {
	Name string
	// Register binds the area's steps.
	Register func(t *Steps)
	// Slots answer the host functions the area's ops install, by name within the area: the
	// slot on the wire is "<area>.<name>".
	Slots map[string]SlotFunc
	// Protocol is the area's protocol fragment (steps/<area>/protocol.json): its ops, option
	// keys, slots and results; nil for an area that adds none.
	Protocol []byte
	// Facts is the area's part of a port's facts.json (steps/<area>/facts.json): each key
	// it reads, with its schema; nil for an area that needs none.
	Facts []byte
	// Open, when set, starts what every scenario of the run shares (the fake LLM); the value
	// is Env.Shared[Name] and close is called when the run ends.
	Open func() (shared any, close func(), err error)
	// Witness, when set, says what the area's fakes saw so far, for a call cut at its bound.
	Witness func(a *Attempt) []string
	// Warm, when set, is run on each new adapter before its first scenario (not judged): it
	// reports false when it broke the process.
	Warm func(ctx context.Context, p *adapter.Process, ops []any) bool
	// CheckStep, when set, checks what a step's text names before anything runs (a fixture
	// file under root): an error is bad input at the step's file:line, never a verdict.
	CheckStep func(root, text string) error
}

// Library is the step library: the areas, in registration order.
type Library []Area

// Names are the areas' names, in order.
func (lib Library) Names() []string {
	out := make([]string, len(lib))
	for i, a := range lib {
		out[i] = a.Name
	}
	return out
}

func (lib Library) register(t *Steps) {
	for _, a := range lib {
		if a.Register != nil {
			a.Register(t)
		}
	}
}

// slot finds the area answering a slot, "<area>.<name>".
func (lib Library) slot(slot string) (SlotFunc, bool) {
	area, name, _ := strings.Cut(slot, ".")
	for _, a := range lib {
		if f, ok := a.Slots[name]; ok && a.Name == area {
			return f, true
		}
	}
	return nil, false
}

// Protocol composes the protocol schema from the envelope and the areas' fragments.
func (lib Library) Protocol() (*schema.Protocol, error) {
	var frags []schema.Fragment
	for _, a := range lib {
		if a.Protocol == nil {
			continue
		}
		f, err := schema.ParseFragment("steps/"+a.Name+"/protocol.json", a.Protocol)
		if err != nil {
			return nil, err
		}
		if f.Area != a.Name {
			return nil, fmt.Errorf("steps/%s/protocol.json: its area is %q", a.Name, f.Area)
		}
		frags = append(frags, f)
	}
	return schema.Load(frags...)
}

// Facts composes the facts schema from the areas' fragments.
func (lib Library) Facts() (*schema.FactsSchema, error) {
	var frags []schema.FactsFragment
	for _, a := range lib {
		if a.Facts != nil {
			frags = append(frags, schema.FactsFragment{Area: a.Name, Doc: a.Facts})
		}
	}
	return schema.ComposeFacts(frags)
}

// Open starts what the areas share for a run; close ends it all.
func (lib Library) Open() (Shared, func(), error) {
	shared := Shared{}
	var closers []func()
	closeAll := func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	for _, a := range lib {
		if a.Open == nil {
			continue
		}
		v, c, err := a.Open()
		if err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("%s: %w", a.Name, err)
		}
		shared[a.Name] = v
		if c != nil {
			closers = append(closers, c)
		}
	}
	return shared, closeAll, nil
}

// Warm runs every area's warm-up on a new adapter; false when one broke it.
func (lib Library) Warm(ctx context.Context, p *adapter.Process, ops []any) bool {
	for _, a := range lib {
		if a.Warm != nil && !a.Warm(ctx, p, ops) {
			return false
		}
	}
	return true
}
