package toolnexus

import (
	"encoding/json"
	"math"
	"testing"
)

func TestEncodeURIComponent(t *testing.T) {
	for in, want := range map[string]string{
		"a b/c&d=e+f it's (ok)!~*": "a%20b%2Fc%26d%3De%2Bf%20it's%20(ok)!~*",
		"ünï":                      "%C3%BCn%C3%AF",
		"🚀":                        "%F0%9F%9A%80",
		"-_.":                      "-_.",
		"#?%":                      "%23%3F%25",
		"":                         "",
	} {
		if got := encodeURIComponent(in); got != want {
			t.Errorf("encodeURIComponent(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFormEncode(t *testing.T) {
	if got := formEncode("a b*-._~!'()/é"); got != "a+b*-._%7E%21%27%28%29%2F%C3%A9" {
		t.Fatalf("formEncode = %q", got)
	}
}

func TestArgText(t *testing.T) {
	cases := []struct {
		in   any
		want string
	}{
		{"a<b", "a<b"}, {1234567.0, "1234567"}, {2.5, "2.5"}, {true, "true"}, {nil, "null"},
		{json.Number("9007199254740993"), "9007199254740993"}, {42, "42"}, {1e21, "1e+21"},
		{map[string]any{"b": "<", "a": 1.0}, `{"a":1,"b":"<"}`}, {[]any{1.0, "x"}, `[1,"x"]`},
		{math.NaN(), "NaN"},
	}
	for _, c := range cases {
		if got := argText(c.in); got != c.want {
			t.Errorf("argText(%#v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestFillPlaceholders(t *testing.T) {
	args := map[string]any{"id": 7.0, "name": "a b", "n": nil, "rest": "x"}
	got := fillPlaceholders("http://h/{id}/{name}/{id}/{missing}/{n}?k={name}", args)
	if got != "http://h/7/a%20b/7//?k=a%20b" {
		t.Fatalf("url = %q", got)
	}
	if len(args) != 1 || args["rest"] != "x" {
		t.Fatalf("placeholders not consumed: %v", args)
	}
}

func TestFormValuesAndWithQuery(t *testing.T) {
	if got := formValues(map[string]any{"q": "a b", "n": 1.0, "b": true, "z": nil}); got != "b=true&n=1&q=a+b&z=null" {
		t.Fatalf("formValues = %q", got)
	}
	for _, c := range [][3]string{
		{"http://h/p", "a=1", "http://h/p?a=1"},
		{"http://h/p?x=1", "a=1", "http://h/p?x=1&a=1"},
		{"http://h/p?", "a=1", "http://h/p?a=1"},
		{"http://h/p#frag", "a=1", "http://h/p?a=1#frag"},
		{"http://h/p", "", "http://h/p"},
	} {
		if got := withQuery(c[0], c[1]); got != c[2] {
			t.Errorf("withQuery(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}
