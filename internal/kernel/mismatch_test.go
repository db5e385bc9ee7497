package kernel

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDiffOfIsNilWhenEqualAndCarriesBothValuesWhenNot(t *testing.T) {
	if d := DiffOf([]string{"a"}, []string{"a"}); d != nil {
		t.Fatalf("equal values gave a diff: %v", d)
	}
	want, got := map[string]any{"f": 1.0, "g": "100"}, map[string]any{"f": 1.0, "g": "100.0"}
	d := DiffOf(want, got)
	if d == nil || d.Error() != cmp.Diff(want, got) {
		t.Fatalf("the message must be go-cmp's diff; got %v", d)
	}
	if !strings.Contains(d.stable, `"g":"100"`) || !strings.Contains(d.stable, `"g":"100.0"`) {
		t.Errorf("the stand-in must hold both values whole: %q", d.stable)
	}
}

// Two processes can render one diff two ways; the stand-in must not see that.
func TestStableMessageReplacesEveryRenderingOfADiff(t *testing.T) {
	one := &Mismatch{text: `"10", + "0.", "0,"`, stable: "want 100 got 100.0"}
	two := &Mismatch{text: `"100", + ".0", ","`, stable: "want 100 got 100.0"}
	wrap := func(m *Mismatch) error {
		return fmt.Errorf("step: %w", fmt.Errorf("LLM request 1 differs (-want +got):\n%w\nstatus: {}", m))
	}
	a, b := wrap(one), wrap(two)
	if a.Error() == b.Error() {
		t.Fatal("the test needs two renderings")
	}
	if sa, sb := StableMessage(a), StableMessage(b); sa != sb || !strings.Contains(sa, "status: {}") || strings.Contains(sa, `"0."`) {
		t.Errorf("stable messages: %q / %q; want one text, the rest of the message kept", sa, sb)
	}
	if s := StableMessage(errors.Join(errors.New("first"), one)); !strings.HasSuffix(s, "want 100 got 100.0") {
		t.Errorf("a joined error: %q", s)
	}
	if s := StableMessage(errors.New("the call returned after 2.6 s")); s != "" {
		t.Errorf("a message without a diff needs no stand-in; got %q", s)
	}
}
