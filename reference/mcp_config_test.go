package toolnexus

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseMcpConfigWrappersAndBareMap(t *testing.T) {
	entry := `{"url":"http://127.0.0.1:1/mcp"}`
	for _, doc := range []string{
		`{"mcpServers":{"s":` + entry + `}}`,
		`{"servers":{"s":` + entry + `}}`,
		`{"mcp":{"s":` + entry + `}}`,
		`{"s":` + entry + `}`,
		`{"s":` + entry + `,"builtins":{"enabled":false},"agents":{},"a2a":{}}`,
	} {
		cfg, err := ParseMcpConfig([]byte(doc))
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		if len(cfg) != 1 || cfg["s"].URL != "http://127.0.0.1:1/mcp" {
			t.Fatalf("%s: got %+v", doc, cfg)
		}
	}
}

func TestParseMcpConfigInfersAndNormalises(t *testing.T) {
	cfg, err := ParseMcpConfig([]byte(`{"mcpServers":{
		"web":   {"url":"https://example.com/mcp","headers":{"Authorization":"Bearer ${TOKEN}"}},
		"local": {"type":"local","command":["npx","-y","pkg"],"args":["--flag"],"env":{"A":"1","B":"env"},"environment":{"B":"environment"},"cwd":"/tmp"},
		"plain": {"command":"srv","args":["x"],"timeout":1500},
		"old":   {"type":"sse","url":"http://127.0.0.1:2/sse"},
		"rem":   {"type":"remote","url":"http://127.0.0.1:3/mcp","enabled":true}
	}}`))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{"web": mcpKindHTTP, "local": mcpKindStdio, "plain": mcpKindStdio, "old": mcpKindSSE, "rem": mcpKindHTTP}
	for name, want := range kinds {
		if got, _ := cfg[name].kind(); got != want {
			t.Errorf("%s: kind %q, want %q", name, got, want)
		}
	}
	local := cfg["local"]
	if local.Command != "npx" || strings.Join(local.Args, " ") != "-y pkg --flag" {
		t.Errorf("command array: got %q %q", local.Command, local.Args)
	}
	if local.Env["A"] != "1" || local.Env["B"] != "environment" || local.Cwd != "/tmp" {
		t.Errorf("env/cwd: got %v %q", local.Env, local.Cwd)
	}
	if cfg["plain"].timeout() != 1500*time.Millisecond || cfg["web"].timeout() != 30*time.Second {
		t.Errorf("timeouts: %v %v", cfg["plain"].timeout(), cfg["web"].timeout())
	}
	if !cfg["rem"].isEnabled() || cfg["web"].Headers["Authorization"] != "Bearer ${TOKEN}" {
		t.Errorf("enabled/headers kept raw until connect: %+v", cfg)
	}
}

func TestParseMcpConfigDisabledForms(t *testing.T) {
	cfg, err := ParseMcpConfig([]byte(`{
		"a":{"url":"http://127.0.0.1:1","enabled":false},
		"b":{"url":"http://127.0.0.1:1","disabled":true},
		"c":{"enabled":false},
		"d":{"url":"http://127.0.0.1:1","disabled":false,"enabled":null}}`))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"a": false, "b": false, "c": false, "d": true} {
		if cfg[name].isEnabled() != want {
			t.Errorf("%s enabled = %v, want %v", name, !want, want)
		}
	}
}

func TestParseMcpConfigInputKinds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp.json")
	doc := `{"mcpServers":{"s":{"url":"http://127.0.0.1:1/mcp","tools":{"a":true}}}}`
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	inline := map[string]any{"servers": map[string]any{
		"s": map[string]any{"url": "http://127.0.0.1:1/mcp", "tools": map[string]bool{"a": true}, "timeout": 2000},
	}}
	typed := McpConfig{"s": {URL: "http://127.0.0.1:1/mcp", Tools: map[string]bool{"a": true}}}
	for _, in := range []any{path, []byte(doc), json.RawMessage(doc), inline, typed, map[string]ServerConfig(typed)} {
		cfg, err := ParseMcpConfig(in)
		if err != nil {
			t.Fatalf("%T: %v", in, err)
		}
		if !cfg["s"].Tools["a"] || cfg["s"].URL == "" {
			t.Fatalf("%T: got %+v", in, cfg)
		}
	}
}

func TestParseMcpConfigErrorsNameTheProblem(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.json")
	cases := []struct {
		in   any
		want []string
	}{
		{missing, []string{missing, "read MCP config"}},
		{"", []string{"path is empty"}},
		{[]byte(`{"mcpServers":`), []string{"invalid JSON"}},
		{[]byte(`[1,2]`), []string{"JSON object", "an array"}},
		{[]byte(`null`), []string{"JSON object", "null"}},
		{[]byte(`{"mcpServers":[]}`), []string{`"mcpServers"`, "an array"}},
		{[]byte(`{"srv":{"timeout":5}}`), []string{`server "srv"`, `"url"`, `"command"`}},
		{[]byte(`{"srv":{"url":"http://x","tools":{"a":true,"b":"yes"}}}`), []string{`server "srv"`, `"tools"`, `"b"`, "true or false"}},
		{[]byte(`{"srv":{"url":"http://x","tools":[]}}`), []string{`server "srv"`, `"tools"`}},
		{[]byte(`{"srv":{"type":"grpc","url":"http://x"}}`), []string{`server "srv"`, `"grpc"`, "unknown"}},
		{[]byte(`{"srv":{"type":"stdio","url":"http://x"}}`), []string{`server "srv"`, `"command"`}},
		{[]byte(`{"srv":{"type":"sse","command":"x"}}`), []string{`server "srv"`, `"url"`}},
		{[]byte(`{"srv":{"url":"ftp://x"}}`), []string{`server "srv"`, "http(s) URL"}},
		{[]byte(`{"srv":{"command":[]}}`), []string{`server "srv"`, `"command"`, "empty"}},
		{[]byte(`{"srv":{"command":"x","timeout":"soon"}}`), []string{`server "srv"`, `"timeout"`}},
		{[]byte(`{"srv":{"command":"x","timeout":-1}}`), []string{`"timeout"`}},
		{[]byte(`{"srv":{"command":"x","enabled":"no"}}`), []string{`"enabled"`, "true or false"}},
		{[]byte(`{"srv":{"command":"x","headers":{"A":1}}}`), []string{`"headers"`}},
		{[]byte(`{"srv":{"command":"x","env":{"A":1}}}`), []string{`"env"`}},
		{[]byte(`{"srv":5}`), []string{`server "srv"`, "a number"}},
		{[]byte(`{"srv":null}`), []string{`server "srv"`, "null"}},
		{McpConfig{"srv": {Type: "bogus"}}, []string{`server "srv"`, `"bogus"`}},
		{42, []string{"unsupported MCP config type int"}},
		{nil, []string{"no MCP config"}},
	}
	for _, c := range cases {
		_, err := ParseMcpConfig(c.in)
		if err == nil {
			t.Errorf("%v: no error", c.in)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", c.in, err, w)
			}
		}
	}
}

func TestParseMcpConfigNeverEchoesHeaderValues(t *testing.T) {
	_, err := ParseMcpConfig([]byte(`{"srv":{"url":"http://x","headers":{"Authorization":["s3cret"]}}}`))
	if err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Fatalf("want an error without the value, got %v", err)
	}
}

func TestParseMcpConfigEmptyAndNullWrapper(t *testing.T) {
	for _, doc := range []string{`{}`, `{"mcpServers":null}`, `{"mcpServers":{}}`} {
		cfg, err := ParseMcpConfig([]byte(doc))
		if err != nil || len(cfg) != 0 {
			t.Fatalf("%s: %v %v", doc, cfg, err)
		}
	}
}

func TestExpandEnvHeaders(t *testing.T) {
	t.Setenv("TN_TOKEN", "abc")
	got := ExpandEnvHeaders(map[string]string{"Authorization": "Bearer ${TN_TOKEN}", "X": "${TN_UNSET_VAR}-$PLAIN"})
	if got["Authorization"] != "Bearer abc" || got["X"] != "-$PLAIN" {
		t.Fatalf("got %v", got)
	}
	if ExpandEnvHeaders(nil) != nil {
		t.Fatal("nil in must give nil out")
	}
}
