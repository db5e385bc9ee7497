package toolnexus

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"testing"
)

func TestJSNumberString(t *testing.T) { // ECMAScript Number::toString, as JSON.stringify prints
	cases := map[float64]string{
		0: "0", math.Copysign(0, -1): "0", 1: "1", -1: "-1", 1.5: "1.5", -0.5: "-0.5", 100: "100",
		0.1: "0.1", 0.000001: "0.000001", 0.0000001: "1e-7", 1.5e-7: "1.5e-7", 1.2345e-7: "1.2345e-7",
		123456789: "123456789", 1e20: "100000000000000000000", 1e21: "1e+21", 1.5e21: "1.5e+21",
		123e18: "123000000000000000000", 9007199254740993: "9007199254740992",
		math.MaxFloat64: "1.7976931348623157e+308", 5e-324: "5e-324", 2.5: "2.5", 2e-6: "0.000002",
		-1e-7: "-1e-7", 1.7e300: "1.7e+300", 12.345: "12.345", 1234.5678: "1234.5678",
	}
	a, b := 0.1, 0.2
	cases[a+b] = "0.30000000000000004"
	for in, want := range cases {
		if got := jsNumberString(in); got != want {
			t.Errorf("%s: got %q, want %q", strconv.FormatFloat(in, 'g', -1, 64), got, want)
		}
	}
	for _, in := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if got := jsNumberJSON(in); got != "null" {
			t.Errorf("%v: got %q", in, got)
		}
	}
}

func TestJSStringifyRaw(t *testing.T) { // C4.4-C4.6
	cases := map[string]string{
		rawStructBytes:                          rawStructBytes,
		`{"f":1.0,"g":1e2,"h":-0.5,"i":1.5e-7}`: `{"f":1,"g":100,"h":-0.5,"i":1.5e-7}`,
		` { } `:                                 `{}`,
		`[ ]`:                                   `[]`,
		`{"a" : [ 1 , { "b" : null } ] }`:       `{"a":[1,{"b":null}]}`,
		`{"k":1,"k":2,"j":3}`:                   `{"k":2,"j":3}`,
		`"\u00e9\u003c\/\"\\\b\f\n\r\t\u0001\u001f\u007f"`: `"é</\"\\\b\f\n\r\t\u0001\u001f` + "\u007f" + `"`,
		`"\ud83d\ude80"`: `"🚀"`,
		`"\ud800x"`:      `"\ud800x"`,
		`"\udc00"`:       `"\udc00"`,
		`"\u2028\u2029"`: "\"\u2028\u2029\"",
		`{"big":9007199254740993,"e":1E400,"m":-1e400,"z":-0,"u":1e-400}`: `{"big":9007199254740992,"e":null,"m":null,"z":0,"u":0}`,
		`[true,false,null,"x"]`: `[true,false,null,"x"]`,
		`{"2":1,"1":2,"b":3}`:   `{"2":1,"1":2,"b":3}`, // server order, not JS integer-key order
	}
	for in, want := range cases {
		got, err := jsStringifyRaw([]byte(in))
		if err != nil || got != want {
			t.Errorf("%s: got %s (%v), want %s", in, got, err, want)
		}
	}
	if got, err := jsStringifyRaw([]byte("\"a\xffb\"")); err != nil || got != "\"a\uFFFDb\"" {
		t.Errorf("invalid UTF-8: %q %v", got, err)
	}
	for _, bad := range []string{``, `{`, `{"a"}`, `[1,]`, `01`, `1.`, `-`, `"\x"`, `tru`, `{} x`, `"a` + "\n" + `"`, `{"a":1,}`} {
		if _, err := jsStringifyRaw([]byte(bad)); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
}

// FuzzJSStringifyRaw: valid JSON is always rewritten, into JSON that means the same value;
// anything else is refused.
func FuzzJSStringifyRaw(f *testing.F) {
	for _, seed := range []string{rawStructBytes, `{"f":1.0,"g":1e2}`, `[1,"\ud800",{"a":{"a":1}}]`, `"\u00e9"`, `-0.0e-0`, `{"k":1,"k":2}`, `{`, `1e400`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := jsStringifyRaw(data)
		if !json.Valid(data) {
			if err == nil {
				t.Fatalf("invalid JSON %q accepted as %q", data, out)
			}
			return
		}
		if err != nil {
			t.Fatalf("valid JSON %q refused: %v", data, err)
		}
		var in, back any
		if json.Unmarshal(data, &in) != nil {
			return // a number out of float64 range: JSON.stringify gives null, Go refuses it
		}
		if err := json.Unmarshal([]byte(out), &back); err != nil {
			t.Fatalf("%q rewritten as invalid %q: %v", data, out, err)
		}
		if !reflect.DeepEqual(in, back) {
			t.Fatalf("%q rewritten as %q: %v != %v", data, out, in, back)
		}
	})
}
