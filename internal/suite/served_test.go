package suite

import (
	"slices"
	"strings"
	"testing"

	"github.com/muthuishere/toolnexus-conformance/schema"
)

// An adapter whose hello leaves out an area's op or slot is a harness error naming them and
// the facts file, unless the facts say why; an excuse for what hello serves is stale.
func TestUnexplainedOpsAndSlots(t *testing.T) {
	proto, err := schema.LoadTree("../..")
	if err != nil {
		t.Fatal(err)
	}
	hello := func(dropOp, dropSlot string) map[string]any {
		var ops, slots []any
		for _, o := range proto.Ops() {
			if o != dropOp {
				ops = append(ops, o)
			}
		}
		for _, s := range proto.Slots() {
			if s != dropSlot {
				slots = append(slots, s)
			}
		}
		return map[string]any{"ops": ops, "slots": slots}
	}
	if !slices.Contains(proto.Ops(), "conversation.send") || !slices.Contains(proto.Slots(), "suspension.waitFor") {
		t.Fatalf("the protocol lacks the ops this test drops: %v %v", proto.Ops(), proto.Slots())
	}
	if why := unexplained(hello("", ""), proto, nil, "runners/x/facts.json"); why != "" {
		t.Errorf("a hello serving everything: %s", why)
	}
	why := unexplained(hello("conversation.send", "suspension.waitFor"), proto, nil, "runners/x/facts.json")
	for _, want := range []string{"conversation.send", "suspension.waitFor", "runners/x/facts.json", `"unserved"`} {
		if !strings.Contains(why, want) {
			t.Errorf("missing op and slot: %q lacks %q", why, want)
		}
	}
	excused := map[string]string{"conversation.send": "the library has no Conversation", "suspension.waitFor": "no suspension"}
	if why := unexplained(hello("conversation.send", "suspension.waitFor"), proto, excused, "runners/x/facts.json"); why != "" {
		t.Errorf("excused: %s", why)
	}
	if why := unexplained(hello("", ""), proto, excused, "runners/x/facts.json"); !strings.Contains(why, "take them out") || !strings.Contains(why, "conversation.send") {
		t.Errorf("stale excuses: %q", why)
	}
}
