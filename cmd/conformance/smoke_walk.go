package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/schema"
)

// smokeOrder is the order ops are smoked in: every op after the ops its smoke block needs,
// ops marked last after all others, otherwise by name. An op whose needs loop is placed
// anyway (its needs then were not met, and it is skipped).
func smokeOrder(p *schema.Protocol) []string {
	var out []string
	placed := map[string]bool{}
	var place func(op string, seen map[string]bool)
	place = func(op string, seen map[string]bool) {
		if placed[op] || seen[op] {
			return
		}
		seen[op] = true
		sm, _ := p.SmokeOp(op)
		for _, n := range sm.Needs {
			place(n, seen)
		}
		placed[op] = true
		out = append(out, op)
	}
	for _, last := range []bool{false, true} {
		for _, op := range p.Ops() {
			if sm, _ := p.SmokeOp(op); sm.Last == last {
				place(op, map[string]bool{})
			}
		}
	}
	return out
}

// resolve fills a smoke block's placeholders: "$llm", "$mcp" and "$tmp" with the fakes and
// the scratch directory, any other "$name" with the handle prefix+name.
func (s *smoke) resolve(v any, prefix string) any {
	switch x := v.(type) {
	case string:
		switch {
		case x == "$llm":
			return s.route.BaseURL()
		case x == "$mcp":
			return s.mcpURL
		case x == "$tmp":
			return s.tmp
		case strings.HasPrefix(x, "$") && len(x) > 1:
			return prefix + x[1:]
		}
		return x
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = s.resolve(e, prefix)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = s.resolve(e, prefix)
		}
		return out
	}
	return v
}

// walkOps sends every op of the protocol its smoke block's request, in smokeOrder: an op
// hello does not list is unsupported, one whose needed op did not succeed is skipped.
func (s *smoke) walkOps() {
	done := map[string]string{} // op -> why it cannot serve as a need ("" when it succeeded)
	for _, op := range smokeOrder(s.proto) {
		sm, ok := s.proto.SmokeOp(op)
		if !ok && slices.Contains(s.ops, op) {
			s.line(stFail, "op %s: its fragment has no smoke block", op)
			done[op] = "it was not smoked"
			continue
		}
		if i := slices.IndexFunc(sm.Needs, func(n string) bool { return done[n] != "" }); i >= 0 && slices.Contains(s.ops, op) {
			s.line(stSkipped, "op %s: not smoked: it needs %s, and %s", op, sm.Needs[i], done[sm.Needs[i]])
			done[op] = "it was not smoked"
			continue
		}
		args, _ := s.resolve(sm.Args, "smoke_").(map[string]any)
		st, detail, r := s.send(op, args, sm.LLM)
		switch {
		case st == stOK && r != nil && r.OK:
			done[op] = ""
			if bad := expectMisses(sm.Expect, r.Result); bad != "" {
				st, detail = stFail, bad
			}
		case st == stOK:
			done[op] = "the library refused it (" + detail + ")"
		case st == stUnsupported:
			done[op] = "it is unsupported"
		default:
			done[op] = "it failed"
		}
		s.line(st, "op %s%s", op, suffix(detail))
	}
}

// expectMisses names the expected result values the result lacks ("" when none).
func expectMisses(want, got map[string]any) string {
	var miss []string
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if fmt.Sprint(got[k]) != fmt.Sprint(want[k]) {
			miss = append(miss, fmt.Sprintf("%s is %v, want %v", k, got[k], want[k]))
		}
	}
	return strings.Join(miss, "; ")
}

func suffix(detail string) string {
	if detail == "" {
		return ""
	}
	return ": " + detail
}

// walkSlots answers every slot hello lists once each way: its smoke block's steps are sent
// with the slot answered by a return, an edit (when the slot takes one) and a raise; each
// time the slot must be called back and every step answered without the adapter breaking.
func (s *smoke) walkSlots() {
	for n, slot := range s.proto.Slots() {
		if !slices.Contains(s.slots, slot) {
			s.line(stUnsupported, "slot %s: hello does not list it", slot)
			continue
		}
		sm, ok := s.proto.SmokeSlot(slot)
		if !ok {
			s.line(stFail, "slot %s: its fragment has no smoke block", slot)
			continue
		}
		kinds := []string{"return", "edit", "raise"}
		if sm.Edit == nil {
			kinds = []string{"return", "raise"} // the slot takes no edit (SPEC.md §3's slot table)
		}
		var bad, taken []string
		state := stOK
		for _, kind := range kinds {
			st, why := s.slotOnce(slot, sm, kind, fmt.Sprintf("smoke_s%d%s_", n, kind[:2]))
			switch st {
			case stFail:
				state = stFail
				bad = append(bad, kind+": "+why)
			case stOK:
				taken = append(taken, kind)
			default:
				if state == stOK {
					state = st
				}
				bad = append(bad, kind+": "+why)
			}
		}
		detail := strings.Join(taken, ", ") + " taken"
		if len(bad) > 0 {
			detail = strings.Join(bad, "; ")
		}
		s.line(state, "slot %s: %s", slot, detail)
	}
}

// slotOnce runs slot's steps once with the slot answered by kind.
func (s *smoke) slotOnce(slot string, sm schema.SmokeSlot, kind, prefix string) (state, why string) {
	s.route = s.llm.NewRoute()
	if kind != "return" {
		s.answer[slot] = kind
		defer delete(s.answer, slot)
	}
	before := s.saw[slot]
	for _, step := range sm.Steps {
		args, _ := s.resolve(step.Args, prefix).(map[string]any)
		st, detail, r := s.send(step.Op, args, step.LLM)
		// A raise may end the request with any error the adapter reports (a Go hook without
		// an error result panics, and the adapter says so): only a broken adapter is red.
		if kind == "raise" && st == stFail && r != nil && len(r.Crashes) == 0 {
			st = stOK
		}
		if st != stOK {
			return st, step.Op + ": " + detail
		}
	}
	if s.saw[slot] == before {
		return stFail, "never called back"
	}
	if kind == "edit" && sm.Edit.Wire {
		for _, q := range s.route.Requests() {
			if hasAll(q.Body, sm.Edit.Set) {
				return stOK, ""
			}
		}
		return stFail, "the edit never reached the wire"
	}
	return stOK, ""
}

func hasAll(body, set map[string]any) bool {
	for k, v := range set {
		if fmt.Sprint(body[k]) != fmt.Sprint(v) {
			return false
		}
	}
	return true
}
