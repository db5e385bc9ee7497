package schema

import "testing"

func TestRequests(t *testing.T) {
	p, err := Load()
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
	p, err := Load()
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
	p, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for line, ok := range map[string]bool{
		`{"callback":1,"fn":"bodyTransform","args":{"client":"c","body":{"model":"m"}}}`:            true,
		`{"callback":2,"fn":"beforeLLM","args":{"client":"c","turn":1,"messages":[],"tools":null}}`: true,
		`{"callback":3,"fn":"http","args":{"client":"c","method":"POST","url":"http://x"}}`:         true,
		`{"callback":4,"fn":"tool","args":{"toolkit":"t","name":"echo","input":{}}}`:                true,
		`{"callback":5,"fn":"bodyTransform","args":{"client":"c"}}`:                                 false,
		`{"callback":6,"fn":"exec","args":{}}`:                                                      false,
		`{"callback":0,"fn":"http","args":{"client":"c","method":"GET","url":"u"}}`:                 false,
	} {
		if err := p.ValidateCallback([]byte(line)); (err == nil) != ok {
			t.Errorf("callback %s: err=%v, want ok=%v", line, err, ok)
		}
	}
	for line, ok := range map[string]bool{
		`{"callback":1,"ok":true,"value":{"a":1},"inPlace":true}`: true,
		`{"callback":1,"ok":true,"value":null}`:                   true,
		`{"callback":1,"ok":false,"error":"host: no"}`:            true,
		`{"callback":1,"ok":false}`:                               false,
		`{"callback":1,"ok":true,"error":"x"}`:                    false,
	} {
		if err := p.ValidateAnswer([]byte(line)); (err == nil) != ok {
			t.Errorf("answer %s: err=%v, want ok=%v", line, err, ok)
		}
	}
}
