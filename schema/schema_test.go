package schema

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestRequests(t *testing.T) {
	p, err := LoadTree("..")
	if err != nil {
		t.Fatal(err)
	}
	good := []string{
		`{"id":1,"op":"hello"}`,
		`{"id":2,"op":"client.create","args":{"handle":"c","baseUrl":"http://x","style":"openai","model":"m","apiKey":"k","bodyTransform":true}}`,
		`{"id":3,"op":"mcp.load","args":{"mcpConfig":{"file":"/tmp/x.json"},"cancelAfterMs":100}}`,
	}
	for _, l := range good {
		if err := p.ValidateRequest([]byte(l)); err != nil {
			t.Errorf("%s: %v", l, err)
		}
	}
	bad := []string{
		`{"id":0,"op":"hello"}`,
		`{"id":1,"op":"nope"}`,
		`{"id":2,"op":"client.create","args":{"handle":"c"}}`,
		`{"id":3,"op":"mcp.load","args":{"mcpConfig":{"file":"a","inline":{}}}}`,
		`{"id":2,"op":"client.create","args":{"handle":"c","baseUrl":"http://x","style":"openai","model":"m","apiKey":"k","bodyTransform":{"delete":["a"]}}}`,
		`not json`,
	}
	for _, l := range bad {
		if err := p.ValidateRequest([]byte(l)); err == nil {
			t.Errorf("%s: accepted", l)
		}
	}
}

func TestResponses(t *testing.T) {
	p, err := LoadTree("..")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		op, line string
		ok       bool
	}{
		{"toolkit.create", `{"id":1,"ok":true,"result":{"tools":["srv_a"],"status":{"srv":"connected"}},"warnings":[]}`, true},
		{"toolkit.create", `{"id":1,"ok":true,"result":{"tools":["srv_a"],"status":{"srv":"up"}},"warnings":[]}`, false},
		{"mcp.load", `{"id":1,"ok":false,"error":{"message":"x","type":"AbortError","chain":[{"type":"AbortError","is":["DOMException"],"message":"x"}]},"warnings":["w"]}`, true},
		{"mcp.load", `{"id":1,"ok":false,"error":{"kind":"unsupported","message":"x"},"warnings":[]}`, true},
		// Kinds of the library's errors are the runner's to judge, never the adapter's.
		{"mcp.load", `{"id":1,"ok":false,"error":{"kind":"cancelled","message":"x"},"warnings":["w"]}`, false},
		{"mcp.load", `{"id":1,"ok":false,"error":{"kind":"failed","message":"x","type":"Error"},"warnings":[]}`, false},
		{"mcp.load", `{"id":1,"ok":false,"error":{"kind":"boom","message":"x"},"warnings":[]}`, false},
		{"hello", `{"id":1,"ok":true,"result":{},"warnings":[]}`, false},
		{"client.run", `{"id":1,"ok":true,"result":{"text":"ok"}}`, false},
		{"toolkit.close", `{"id":1,"ok":true,"result":{},"warnings":[]}`, true},
	}
	for _, c := range cases {
		err := p.ValidateResponse(c.op, []byte(c.line))
		if (err == nil) != c.ok {
			t.Errorf("%s %s: err=%v, want ok=%v", c.op, c.line, err, c.ok)
		}
	}
}

func TestCallbacks(t *testing.T) {
	p, err := LoadTree("..")
	if err != nil {
		t.Fatal(err)
	}
	for line, ok := range map[string]bool{
		`{"callback":1,"fn":"llm.bodyTransform","args":{"client":"c","body":{"model":"m"}}}`:            true,
		`{"callback":2,"fn":"llm.beforeLLM","args":{"client":"c","turn":1,"messages":[],"tools":null}}`: true,
		`{"callback":3,"fn":"transport.http","args":{"client":"c","method":"POST","url":"http://x"}}`:   true,
		`{"callback":4,"fn":"contract.tool","args":{"toolkit":"t","name":"echo","input":{}}}`:           true,
		`{"callback":5,"fn":"llm.bodyTransform","args":{"client":"c"}}`:                                 false,
		`{"callback":6,"fn":"exec","args":{}}`:                                                          false,
		`{"callback":0,"fn":"transport.http","args":{"client":"c","method":"GET","url":"u"}}`:           false,
	} {
		if err := p.ValidateCallback([]byte(line)); (err == nil) != ok {
			t.Errorf("callback %s: err=%v, want ok=%v", line, err, ok)
		}
	}
	for line, ok := range map[string]bool{
		`{"callback":1,"edit":{"a":1}}`:         true,
		`{"callback":1,"return":null}`:          true,
		`{"callback":1,"raise":"host: no"}`:     true,
		`{"callback":1,"suspend":{"id":"r1"}}`:  true,
		`{"callback":1}`:                        false,
		`{"callback":1,"return":1,"raise":"x"}`: false,
		`{"callback":1,"ok":true,"value":null}`: false,
	} {
		if err := p.ValidateAnswer([]byte(line)); (err == nil) != ok {
			t.Errorf("answer %s: err=%v, want ok=%v", line, err, ok)
		}
	}
}

// The protocol is composed from the areas' fragments: every op and slot named once, each
// op's arguments with the option keys other areas add, and the slots an argument needs.
func TestComposedFromFragments(t *testing.T) {
	p, err := LoadTree("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range []string{"client.create", "client.run", "store.get", "mcp.list", "toolkit.create", "sanitize", "toolkit.skillsPrompt", "skills.list", "conversation.send"} {
		if !slices.Contains(p.Ops(), op) {
			t.Errorf("op %s is missing from %v", op, p.Ops())
		}
	}
	if want := []string{"contract.tool", "hooks.afterLLM", "hooks.afterTool", "hooks.beforeTool", "llm.beforeLLM", "llm.bodyTransform", "resilience.onError", "suspension.tool", "suspension.waitFor", "transport.http"}; !slices.Equal(p.Slots(), want) {
		t.Errorf("slots %v, want %v", p.Slots(), want)
	}
	// transport's option on llm's op, mcp's on contract's.
	for _, line := range []string{
		`{"id":1,"op":"client.create","args":{"handle":"c","baseUrl":"u","style":"openai","model":"m","apiKey":"k","httpClient":"recording","store":"host"}}`,
		`{"id":1,"op":"toolkit.create","args":{"handle":"t","mcpConfig":{"inline":{}},"cancelAfterMs":0}}`,
		`{"id":1,"op":"client.run","args":{"client":"c","prompt":"p","stream":true,"cancelAfterMs":500,"id":"s"}}`,
	} {
		if err := p.ValidateRequest([]byte(line)); err != nil {
			t.Errorf("%s: %v", line, err)
		}
	}
	got := p.SlotsNeeded("client.create", map[string]any{"bodyTransform": true, "httpClient": "recording", "beforeLLM": false})
	if want := []string{"llm.bodyTransform", "transport.http"}; !slices.Equal(got, want) {
		t.Errorf("slots needed %v, want %v", got, want)
	}
	if got := p.SlotsNeeded("client.create", map[string]any{"httpClient": "default"}); len(got) != 0 {
		t.Errorf("a default HTTP client needs no slot: %v", got)
	}
}

// A fragment that defines what another already did, or names a slot outside its area, is
// refused with its name.
func TestFragmentsNameEachThingOnce(t *testing.T) {
	a := Fragment{Area: "a", Defs: map[string]json.RawMessage{"x": json.RawMessage(`{}`)}}
	b := Fragment{Area: "b", Defs: map[string]json.RawMessage{"x": json.RawMessage(`{}`)}}
	if _, err := Load(a, b); err == nil || !strings.Contains(err.Error(), `"x" is defined twice`) {
		t.Errorf("a definition twice: %v", err)
	}
	c, err := ParseFragment("c", []byte(`{"area":"c","slots":{"d.fn":{"args":{}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Load(c); err == nil || !strings.Contains(err.Error(), "not named c.<name>") {
		t.Errorf("a slot outside its area: %v", err)
	}
}
