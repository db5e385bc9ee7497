package safetext

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEscapes(t *testing.T) {
	for _, c := range []struct{ in, text, line string }{
		{"plain text, ünïcode ✓", "plain text, ünïcode ✓", "plain text, ünïcode ✓"},
		{"a\nb\tc", "a\nb\tc", `a\nb\tc`},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`, `\x1b[31mred\x1b[0m`},
		{"\x1b]0;pwned\x07title", `\x1b]0;pwned\x07title`, `\x1b]0;pwned\x07title`},
		{"over\rwrite", `over\rwrite`, `over\rwrite`},
		{"nul\x00del\x7f", `nul\x00del\x7f`, `nul\x00del\x7f`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`, `bad \xff\xfe utf8`},
		{"c1 \u009b31m", `c1 \u009b31m`, `c1 \u009b31m`},
		{"bidi \u202eevil", `bidi \u202eevil`, `bidi \u202eevil`},
		{"sep\u2028x", `sep\u2028x`, `sep\u2028x`},
	} {
		if got := Text(c.in); got != c.text {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.text)
		}
		if got := Line(c.in); got != c.line {
			t.Errorf("Line(%q) = %q, want %q", c.in, got, c.line)
		}
		if got := Bytes([]byte(c.in)); got != c.text {
			t.Errorf("Bytes(%q) = %q, want %q", c.in, got, c.text)
		}
	}
}

// FuzzTextIsInert checks that no output ever holds a control character other than newline
// and tab, or invalid UTF-8, whatever the input.
func FuzzTextIsInert(f *testing.F) {
	f.Add("\x1b]8;;http://x\x07link\x1b]8;;\x07\xc3")
	f.Fuzz(func(t *testing.T, s string) {
		out := Text(s)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 survived in %q", out)
		}
		for _, r := range out {
			if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || unsafeRune(r) {
				t.Fatalf("control %U survived in %q", r, out)
			}
		}
	})
}

func TestShortCapsAtARuneAndEscapes(t *testing.T) {
	if got := Short("héllo\x1b[31m", 2); got != "h…" {
		t.Errorf("Short cut inside a rune or kept it whole: %q", got)
	}
	if got := Short("a\x1b]0;x\x07b", 100); strings.ContainsAny(got, "\x1b\x07") {
		t.Errorf("Short left raw controls: %q", got)
	}
}
