package toolnexus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// How an http tool puts model arguments into a URL, a query string and a form body.

// placeholderRe matches {name} in an http tool's URL; \w is ASCII in RE2, as in JS.
var placeholderRe = regexp.MustCompile(`\{(\w+)\}`)

// argText renders one argument for a URL or form: a string as is, anything else as its
// JSON text (1234567, 2.5, true, null), since a model sends JSON and `True` or
// `1.234567e+06` would be Go leaking through (C8.9). Numbers follow JSON.stringify, so
// an exponent appears only where JavaScript writes one too (|x| >= 1e21 or < 1e-6).
func argText(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case json.Number:
		return numberText(t)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v) // not JSON at all (a NaN, a channel): say something rather than nothing
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// numberText is a number the model sent, as JSON.stringify writes it once parsed (1e21 is
// 1e+21, 1.0 is 1, 1E-7 is 1e-7), except that an integer keeps every digit it was sent with
// (C4.9: 9007199254740993 is not rounded to a double).
func numberText(n json.Number) string {
	s := n.String()
	if !strings.ContainsAny(s, ".eE") {
		if s == "-0" {
			return "0"
		}
		return s
	}
	f, err := n.Float64()
	if err != nil {
		return s
	}
	return jsNumberJSON(f)
}

// encodeURIComponent escapes s as JavaScript's function of that name does (C8.8): every
// UTF-8 byte outside A-Z a-z 0-9 - _ . ! ~ * ' ( ) becomes %XX.
func encodeURIComponent(s string) string {
	return percentEncode(s, "-_.!~*'()", false)
}

// formEncode escapes s as the WHATWG application/x-www-form-urlencoded serializer
// (URLSearchParams) does: A-Z a-z 0-9 * - . _ stay, a space is '+', the rest is %XX.
func formEncode(s string) string {
	return percentEncode(s, "*-._", true)
}

func percentEncode(s, keep string, spaceAsPlus bool) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', strings.IndexByte(keep, c) >= 0:
			b.WriteByte(c)
		case c == ' ' && spaceAsPlus:
			b.WriteByte('+')
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// fillPlaceholders replaces each {name} in rawURL with the escaped argument and removes
// that argument from args, so it is not sent again in the query or body (§7). A missing
// or null argument gives an empty segment (C8.10). Every occurrence of a name gets the
// value, not only the first.
func fillPlaceholders(rawURL string, args map[string]any) string {
	used := map[string]bool{}
	out := placeholderRe.ReplaceAllStringFunc(rawURL, func(m string) string {
		name := m[1 : len(m)-1]
		used[name] = true
		v, ok := args[name]
		if !ok || v == nil {
			return ""
		}
		return encodeURIComponent(argText(v))
	})
	for name := range used {
		delete(args, name)
	}
	return out
}

// formValues serializes args as name=value pairs joined by '&', names in sorted order:
// a Go map has no order of its own, and a sorted one is at least the same on every call.
func formValues(args map[string]any) string {
	names := make([]string, 0, len(args))
	for k := range args {
		names = append(names, k)
	}
	sort.Strings(names)
	parts := make([]string, 0, len(names))
	for _, k := range names {
		parts = append(parts, formEncode(k)+"="+formEncode(argText(args[k])))
	}
	return strings.Join(parts, "&")
}

// takeArgs moves the arguments pick selects out of args into a new map.
func takeArgs(args map[string]any, pick func(name string) bool) map[string]any {
	out := map[string]any{}
	for k, v := range args {
		if pick(k) {
			out[k] = v
			delete(args, k)
		}
	}
	return out
}

// withQuery appends an encoded query string to u, after any query it already has and
// before any fragment.
func withQuery(u, qs string) string {
	if i := strings.IndexByte(u, '#'); i >= 0 && qs != "" {
		return withQuery(u[:i], qs) + u[i:]
	}
	switch {
	case qs == "":
		return u
	case strings.HasSuffix(u, "?") || strings.HasSuffix(u, "&"):
		return u + qs
	case strings.Contains(u, "?"):
		return u + "&" + qs
	default:
		return u + "?" + qs
	}
}
