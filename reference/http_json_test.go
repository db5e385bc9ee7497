package toolnexus

import "testing"

func TestCompactJSONInOrder(t *testing.T) {
	for in, want := range map[string]string{
		`{"b":1, "a":"<"}`: `{"b":1,"a":"<"}`,
		" {\n \"z\" : [ 1 , {\"y\":null,\"x\":true} ] }\n": `{"z":[1,{"y":null,"x":true}]}`,
		`{"h":"\u003ci\u003e & \u2028","e":"é"}`:           "{\"h\":\"<i> & \u2028\",\"e\":\"é\"}",
		`{"a":1,"b":2,"a":3}`:                              `{"a":3,"b":2}`,
		`[1.0,-0,1e2,1.5e-7]`:                              `[1,0,100,1.5e-7]`,
		`"tab\there \"q\" \\ \u0001"`:                      `"tab\there \"q\" \\ \u0001"`,
		`{}`:                                               `{}`,
		`[]`:                                               `[]`,
		"not json <b>":                                     `"not json <b>"`,
		`{"a":1} trailing`:                                 `"{\"a\":1} trailing"`,
		"":                                                 `""`,
		"line\n":                                           `"line\n"`,
	} {
		if got := compactJSONInOrder(in); got != want {
			t.Errorf("compactJSONInOrder(%q) = %s, want %s", in, got, want)
		}
	}
}
