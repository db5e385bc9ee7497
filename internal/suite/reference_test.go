package suite

import (
	"testing"

	"github.com/muthuishere/toolnexus-conformance/internal/ports"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// result is a leaf and keeps its own name for the reference; it must be the ports' one, or a
// missing reference would stop being a failure.
func TestResultNamesTheReferenceAsPortsDoes(t *testing.T) {
	if result.Reference != ports.Reference {
		t.Fatalf("result.Reference %q, ports.Reference %q", result.Reference, ports.Reference)
	}
}
