package mcpfake

import (
	"reflect"
	"slices"
	"testing"
)

func TestSchemasAreDistinct(t *testing.T) {
	names := ToolNames()
	if want := []string{"a", "b", "c", "get.balance"}; !slices.Equal(names, want) {
		t.Fatalf("ToolNames = %q", names)
	}
	for i, a := range names {
		if Schema(a)["type"] != "object" {
			t.Errorf("%s: schema %v", a, Schema(a))
		}
		for _, b := range names[i+1:] {
			if reflect.DeepEqual(Schema(a), Schema(b)) {
				t.Errorf("%s and %s share a schema", a, b)
			}
		}
	}
	if want := []any{"x"}; !reflect.DeepEqual(Schema("a")["required"], want) {
		t.Errorf("a requires %v", Schema("a")["required"])
	}
	Schema("a")["type"] = "changed"
	if Schema("a")["type"] != "object" {
		t.Error("Schema returned shared state")
	}
	if Schema("nope") != nil {
		t.Error("Schema of an unknown tool is not nil")
	}
}
