package common

import (
	"fmt"
	"regexp"
	"strconv"
	"unicode/utf8"
)

// codePointRe is how a feature writes a character it should not carry raw (a control, a
// line separator): ⟨U+2028⟩.
var codePointRe = regexp.MustCompile(`⟨U\+([0-9A-F]{4,6})⟩`)

// CodePoints is text with each ⟨U+XXXX⟩ replaced by that code point; a surrogate or a
// number past U+10FFFF is a harness error (the feature is wrong).
func CodePoints(text string) (string, error) {
	var bad error
	out := codePointRe.ReplaceAllStringFunc(text, func(m string) string {
		n, err := strconv.ParseUint(codePointRe.FindStringSubmatch(m)[1], 16, 32)
		if err != nil || !utf8.ValidRune(rune(n)) {
			bad = fmt.Errorf("harness: %s is not a code point", m)
			return m
		}
		return string(rune(n))
	})
	return out, bad
}
