package common

import (
	"strings"
	"testing"
)

func TestCodePoints(t *testing.T) {
	got, err := CodePoints(`a⟨U+2028⟩b⟨U+007F⟩\u0001⟨U+1F680⟩`)
	if err != nil || got != "a\u2028b\x7f\\u0001🚀" {
		t.Errorf("CodePoints = %q, %v", got, err)
	}
	if _, err := CodePoints("⟨U+D800⟩"); err == nil || !strings.Contains(err.Error(), "harness: ⟨U+D800⟩ is not a code point") {
		t.Errorf("a surrogate: %v; want a harness error", err)
	}
}
