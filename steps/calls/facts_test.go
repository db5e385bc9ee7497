package calls

import (
	"testing"

	"github.com/muthuishere/toolnexus-conformance/internal/ports"
)

// Each port's deadline kind is what SPEC.md §3's table pins, with its fact.
func TestEveryPortsDeadlineFact(t *testing.T) {
	for port, kind := range map[string]string{"go": "deadline", "js": "deadline", "python": "cancelled", "java": "cancelled", "csharp": "cancelled"} {
		f, err := ports.LoadFacts("../..", port, func([]byte) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		var d deadlineFact
		if err := f.Decode("deadline", &d); err != nil || d.Kind != kind || d.Fact == "" {
			t.Errorf("%s: %+v, %v; want kind %q with its fact", port, d, err, kind)
		}
	}
}
