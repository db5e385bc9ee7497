package main

import (
	"encoding/json"
	"slices"
	"testing"

	llmfake "github.com/muthuishere/toolnexus-conformance/fakes/llm"
	"github.com/muthuishere/toolnexus-conformance/schema"
	"github.com/muthuishere/toolnexus-conformance/steps"
)

// Every op and slot any fragment declares has smoke data, and that data makes requests the
// composed schema accepts, needing only ops that exist and come first: a new area is smoked
// by its fragment alone, and one that forgot its smoke blocks fails here, not on a port.
func TestEveryOpAndSlotHasSmokeData(t *testing.T) {
	proto, err := steps.Library().Protocol()
	if err != nil {
		t.Fatal(err)
	}
	fake, err := llmfake.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	s := &smoke{proto: proto, route: fake.NewRoute(), mcpURL: "http://127.0.0.1:1/mcp", tmp: t.TempDir()}
	valid := func(where, op string, args map[string]any, replies []json.RawMessage) {
		t.Helper()
		if !slices.Contains(proto.Ops(), op) {
			t.Errorf("%s: no op %q in the protocol", where, op)
			return
		}
		line, _ := json.Marshal(map[string]any{"id": 1, "op": op, "args": s.resolve(args, "smoke_")})
		if err := proto.ValidateRequest(line); err != nil {
			t.Errorf("%s: the %s request breaks the protocol schema: %v", where, op, err)
		}
		for _, raw := range replies {
			var r llmfake.Reply
			if err := json.Unmarshal(raw, &r); err != nil {
				t.Errorf("%s: a fake LLM reply: %v", where, err)
			}
		}
	}
	order := smokeOrder(proto)
	if len(order) != len(proto.Ops()) {
		t.Errorf("smokeOrder placed %d ops of %d: %v", len(order), len(proto.Ops()), order)
	}
	for _, op := range proto.Ops() {
		sm, ok := proto.SmokeOp(op)
		if !ok {
			t.Errorf("op %s: its fragment has no smoke block", op)
			continue
		}
		valid("op "+op, op, sm.Args, sm.LLM)
		for _, n := range sm.Needs {
			if !slices.Contains(proto.Ops(), n) {
				t.Errorf("op %s needs %q, which no fragment declares", op, n)
			} else if slices.Index(order, n) > slices.Index(order, op) {
				t.Errorf("op %s is smoked before %s, which it needs", op, n)
			}
		}
	}
	for _, slot := range proto.Slots() {
		sm, ok := proto.SmokeSlot(slot)
		if !ok {
			t.Errorf("slot %s: its fragment has no smoke block", slot)
			continue
		}
		if len(sm.Steps) == 0 {
			t.Errorf("slot %s: its smoke block has no steps to trigger it", slot)
		}
		for _, st := range sm.Steps {
			valid("slot "+slot, st.Op, st.Args, st.LLM)
		}
		if sm.Edit != nil && (sm.Edit.Arg == "" || len(sm.Edit.Set) == 0) {
			t.Errorf("slot %s: an edit needs the argument it edits and the keys it sets", slot)
		}
	}
}

// The order follows needs and puts the ops that end a handle last, whatever the names.
func TestSmokeOrderFollowsNeeds(t *testing.T) {
	frag := `{"area": "z", "ops": {
		"a.close": {"args": {"type": "object"}, "smoke": {"args": {}, "needs": ["c.make"], "last": true}},
		"b.use":   {"args": {"type": "object"}, "smoke": {"args": {}, "needs": ["c.make"]}},
		"c.make":  {"args": {"type": "object"}, "smoke": {"args": {}}}}}`
	f, err := schema.ParseFragment("z", []byte(frag))
	if err != nil {
		t.Fatal(err)
	}
	p, err := schema.Load(f)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := smokeOrder(p), []string{"c.make", "b.use", "a.close"}; !slices.Equal(got, want) {
		t.Errorf("smokeOrder = %v, want %v", got, want)
	}
}
