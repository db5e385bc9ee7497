// Package safetext makes bytes written by an adapter (or anything it ran) safe to print on a
// terminal or put in a report: control and escape sequences, bidi overrides and invalid UTF-8
// become visible text instead of acting on the reader's screen.
package safetext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Text escapes s and keeps its line breaks and tabs, for multi-line text such as a stderr tail.
func Text(s string) string { return escape(s, true) }

// Line escapes s including line breaks, for text that must stay on one line.
func Line(s string) string { return escape(s, false) }

// Bytes is Text for a byte slice.
func Bytes(b []byte) string { return escape(string(b), true) }

func escape(s string, keepLines bool) string {
	if clean(s, keepLines) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case keepLines && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// clean is the fast path: most text needs no change.
func clean(s string, keepLines bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return cleanUnicode(s[i:], keepLines)
		}
		if (c < 0x20 && !(keepLines && (c == '\n' || c == '\t'))) || c == 0x7f {
			return false
		}
	}
	return true
}

func cleanUnicode(s string, keepLines bool) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			return false
		}
		if (r < 0x20 && !(keepLines && (r == '\n' || r == '\t'))) || r == 0x7f || unsafeRune(r) {
			return false
		}
		i += size
	}
	return true
}

// unsafeRune covers C1 controls (U+0080–U+009F, which some terminals treat like ESC
// sequences), the bidi overrides and isolates that reorder what a reader sees, and the
// line/paragraph separators that break a line without looking like it.
func unsafeRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	case r == 0x2028, r == 0x2029:
		return true
	}
	return false
}

// Short is Line for outside text that must also stay short (a prepare reason, a build-log
// line, a hello field): at most n bytes of s, cut at a rune boundary and marked with "…".
func Short(s string, n int) string {
	if len(s) > n {
		cut := n
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return Line(s)
}
