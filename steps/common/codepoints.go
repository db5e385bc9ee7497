package common

import (
	"encoding/json"
	"fmt"
	"github.com/muthuishere/toolnexus-conformance/fixtures/edge"
	"regexp"
	"strconv"
	"unicode/utf8"
)

// codePointRe is how a feature writes a character it should not carry raw (a control, a
// line separator): ⟨U+2028⟩.
var codePointRe = regexp.MustCompile(`⟨U\+([0-9A-F]{4,6})⟩`)

// edgeRe is how a feature names a value of fixtures/edge/values.json: ⟨edge:quote⟩ for its
// text, ⟨edge-json:quote⟩ for its JSON text (to sit inside a JSON argument).
var edgeRe = regexp.MustCompile(`⟨edge(-json)?:([^⟩]+)⟩`)

// CodePoints is text with each ⟨U+XXXX⟩ replaced by that code point and each ⟨edge:NAME⟩
// (⟨edge-json:NAME⟩) by that edge value's text (JSON text); a surrogate, a number past
// U+10FFFF or an unknown edge value is a harness error (the feature is wrong).
func CodePoints(text string) (string, error) {
	var bad error
	text = edgeRe.ReplaceAllStringFunc(text, func(m string) string {
		g := edgeRe.FindStringSubmatch(m)
		value, err := edge.Text(g[2])
		if g[1] != "" {
			value, err = edge.JSON(g[2])
		}
		if err != nil {
			bad = err
			return m
		}
		return value
	})
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

// StepJSON decodes JSON a feature wrote, its ⟨…⟩ notation first expanded (CodePoints), so
// every area's JSON arguments can draw on the edge values.
func StepJSON(text string, v any) error {
	expanded, err := CodePoints(text)
	if err != nil {
		return err
	}
	return json.Unmarshal([]byte(expanded), v)
}
