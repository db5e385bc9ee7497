package toolnexus

import (
	"bytes"
	"encoding/json"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// rawTransports loads the results fake over every transport the reference speaks.
func rawTransports(t *testing.T) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{
		"streamable-json": {"url": startRawStreamable(t, newResultsFake(), false).URL()},
		"streamable-sse":  {"url": startRawStreamable(t, newResultsFake(), true).URL()},
		"legacy-sse":      {"url": startRawLegacySSE(t, newResultsFake()).URL()},
	}
	if runtime.GOOS != "windows" {
		out["stdio"] = rawStdioEntry(t, nil)
	}
	return out
}

func TestResultMappingOnEveryTransport(t *testing.T) { // C4.1-C4.7, C4.10-C4.12
	type want struct {
		output  string
		isError bool
		part    bool // output need only contain want.output
	}
	cases := map[string]want{
		"r_text2":      {"one\ntwo", false, false},
		"r_err2":       {"bad\n\nworse", true, false},
		"r_err_blank":  {"MCP tool returned an error", true, false},
		"r_err_none":   {"MCP tool returned an error", true, false},
		"r_struct":     {rawStructBytes, false, false},
		"r_struct_err": {"struct failed", true, false},
		"r_num":        {`{"f":1,"g":100,"h":-0.5,"i":1.5e-7}`, false, false},
		"r_spaced":     {`{"k":"aé/<","big":9007199254740992,"neg0":0,"tiny":1e-7,"huge":1e+21,"d":{"x":2}}`, false, false},
		"r_empty":      {`{}`, false, false},
		"r_null":       {"t", false, false},
		"r_image":      {"", false, false},
		"r_mixed":      {"A\nB", false, false},
		"r_badout":     {"does not match the tool's output schema", true, true},
		"r_goodout":    {`{"n":1}`, false, false},
		"r_noout":      {"has an output schema but did not return structured content", true, true},
		"r_errout":     {"failed anyway", true, false},
		"r_rpcerr":     {"bank is closed", true, true},
	}
	for transport, entry := range rawTransports(t) {
		t.Run(transport, func(t *testing.T) {
			src := loadMcpOK(t, map[string]any{"mcpServers": map[string]any{"bank.v2": entry}})
			if src.Status["bank.v2"] != StatusConnected {
				t.Fatalf("status %v", src.Status)
			}
			for name, w := range cases {
				res := executeByName(t, src.Tools, "bank_v2_"+name, map[string]any{})
				ok := res.Output == w.output
				if w.part {
					ok = strings.Contains(res.Output, w.output)
				}
				if !ok || res.IsError != w.isError {
					t.Errorf("%s: got %q isError=%v, want %q isError=%v", name, res.Output, res.IsError, w.output, w.isError)
				}
				if mcpJSON(t, res.Metadata) != `{"server":"bank.v2"}` {
					t.Errorf("%s: metadata %s, want the server as configured", name, mcpJSON(t, res.Metadata))
				}
			}
		})
	}
}

func TestArgumentsPassThrough(t *testing.T) { // C1.5, C2.6, C4.8, C4.9
	for transport, entry := range rawTransports(t) {
		t.Run(transport, func(t *testing.T) {
			src := loadMcpOK(t, map[string]any{"s": entry})
			// What an adapter or the client loop decodes, numbers kept as written.
			var args map[string]any
			dec := json.NewDecoder(strings.NewReader(`{"s":"é","n":2.5,"b":false,"z":null,"arr":[1,"x"],"obj":{"k":[{}]},"big":9007199254740993,"one":1.0}`))
			dec.UseNumber()
			if err := dec.Decode(&args); err != nil {
				t.Fatal(err)
			}
			res := executeByName(t, src.Tools, "s_echo", args)
			var got, sent any
			_ = json.Unmarshal([]byte(res.Output), &got)
			_ = json.Unmarshal([]byte(`{"s":"é","n":2.5,"b":false,"z":null,"arr":[1,"x"],"obj":{"k":[{}]},"big":9007199254740993,"one":1.0}`), &sent)
			if !reflect.DeepEqual(got, sent) {
				t.Errorf("server received %s", res.Output)
			}
			if !strings.Contains(res.Output, `"big":9007199254740993`) || !strings.Contains(res.Output, `"one":1.0`) {
				t.Errorf("numbers were rewritten on the way: %s", res.Output)
			}
			// No arguments at all: the server receives {}.
			if res := executeByName(t, src.Tools, "s_echo", nil); res.Output != "{}" || res.IsError {
				t.Errorf("nil args: server received %q", res.Output)
			}
		})
	}
}

func TestModelArgumentsKeepBigIntegers(t *testing.T) { // C4.9 through the client loop's decoding
	args := parseArgs(`{"big":9007199254740993,"one":1.0,"n":{"x":[2.50]}}`)
	data, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != `{"big":9007199254740993,"n":{"x":[2.50]},"one":1.0}` {
		t.Fatalf("model arguments re-encoded as %s", data)
	}
	f := newResultsFake()
	src := loadMcpOK(t, map[string]any{"s": map[string]any{"url": startRawStreamable(t, f, false).URL()}})
	executeByName(t, src.Tools, "s_echo", args)
	calls := f.seenCalls()
	if len(calls) != 1 || calls[0].Name != "echo" || !bytes.Contains(calls[0].Arguments, []byte(`9007199254740993`)) {
		t.Fatalf("server saw %+v", calls)
	}
}

func TestServerGoneMidCallIsAResult(t *testing.T) { // C1.6, C4.11
	for transport, entry := range rawTransports(t) {
		t.Run(transport, func(t *testing.T) {
			recordMcpWarnings(t)
			src := loadMcpOK(t, map[string]any{"s": entry})
			res := executeByName(t, src.Tools, "s_die", map[string]any{})
			if !res.IsError || strings.TrimSpace(res.Output) == "" || res.Metadata["server"] != "s" {
				t.Fatalf("got %+v", res)
			}
		})
	}
}

func TestStructuredContentFromDecodedValueWhenNoRawBytes(t *testing.T) {
	// The go-sdk's own server, whose bytes the capture also sees; and the fallback alone.
	f := startStreamable(t, "structured")
	src := loadMcpOK(t, map[string]any{"s": mcpHTTPEntry(f.URL(), nil)})
	if res := executeByName(t, src.Tools, "s_structured", nil); res.Output != `{"n":1}` {
		t.Fatalf("got %+v", res)
	}
	text, err := mcpStructuredText(map[string]any{"b": "<&>", "a": 1.5e-7, "c": 1e21}, nil)
	if err != nil || text != `{"a":1.5e-7,"b":"<&>","c":1e+21}` {
		t.Fatalf("fallback %q %v", text, err)
	}
}
