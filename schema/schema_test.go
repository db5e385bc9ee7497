package schema

import "testing"

func TestRequests(t *testing.T) {
	p, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	good := []string{
		`{"id":1,"op":"hello"}`,
		`{"id":2,"op":"client.create","args":{"handle":"c","baseUrl":"http://x","style":"openai","model":"m","apiKey":"k","bodyTransform":{"delete":["a"]}}}`,
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
		{"mcp.load", `{"id":1,"ok":false,"error":{"kind":"cancelled","message":"x"},"warnings":["w"]}`, true},
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
