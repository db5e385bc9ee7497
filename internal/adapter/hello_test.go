package adapter

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestHelloNamesKeepsStringsInOrder(t *testing.T) {
	hello := map[string]any{"ops": []any{"b", 3.0, "a", nil}, "slots": "not a list"}
	if got, want := HelloNames(hello, "ops"), []string{"b", "a"}; !cmp.Equal(got, want) {
		t.Fatalf("ops = %v, want %v", got, want)
	}
	if got := HelloNames(hello, "slots"); got != nil {
		t.Fatalf("slots = %v, want nil for a non-list", got)
	}
	if got := HelloNames(hello, "absent"); got != nil {
		t.Fatalf("absent = %v, want nil", got)
	}
}
