package steps

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestDeadlineKindPerPort(t *testing.T) {
	root, _ := filepath.Abs("..")
	for impl, want := range map[string]string{"reference": "deadline", "go": "deadline", "js": "deadline",
		"python": "cancelled", "python@0.15.0": "cancelled", "java": "cancelled", "csharp": "cancelled"} {
		got, fact, err := deadlineKindFor(root, impl)
		if err != nil || got != want || fact == "" {
			t.Errorf("%s: got %q (fact %q, err %v), want %q with a fact", impl, got, fact, err, want)
		}
	}
	if _, _, err := deadlineKindFor(root, "cobol"); err == nil || !strings.Contains(err.Error(), `"cobol"`) {
		t.Errorf("an unknown port must be a harness error naming it, got %v", err)
	}
}
