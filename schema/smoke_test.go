package schema

import (
	"strings"
	"testing"
)

// A smoke block is decoded strictly: a misspelt key would silently smoke less.
func TestSmokeBlocksAreStrict(t *testing.T) {
	good := `{"area": "z", "ops": {"z.op": {"args": {"type": "object"}, "smoke": {"args": {"a": "$h"}, "needs": ["z.op"]}}},
		"slots": {"z.fn": {"args": {}, "smoke": {"steps": [{"op": "z.op", "args": {}}], "return": "x", "edit": {"arg": "a", "set": {"k": 1}}}}}}`
	f, err := ParseFragment("z", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Load(f)
	if err != nil {
		t.Fatal(err)
	}
	if op, ok := p.SmokeOp("z.op"); !ok || op.Args["a"] != "$h" || len(op.Needs) != 1 {
		t.Errorf("SmokeOp = %+v, %v", op, ok)
	}
	if sl, ok := p.SmokeSlot("z.fn"); !ok || sl.Return != "x" || sl.Edit == nil || sl.Edit.Arg != "a" || len(sl.Steps) != 1 {
		t.Errorf("SmokeSlot = %+v, %v", sl, ok)
	}
	bad := strings.Replace(good, `"needs"`, `"need"`, 1)
	f, err = ParseFragment("z", []byte(bad))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Load(f); err == nil || !strings.Contains(err.Error(), "need") {
		t.Errorf("a misspelt smoke key was accepted (err %v)", err)
	}
}
