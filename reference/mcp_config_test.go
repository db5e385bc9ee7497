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
	// "environment" decides when given; "env" is only its alias (C3.19).
	if len(local.Env) != 1 || local.Env["B"] != "environment" || local.Cwd != "/tmp" {
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
	// Only a config that cannot be read as a whole is an error.
	missing := filepath.Join(t.TempDir(), "nope.json")
	cases := []struct {
		in   any
		want []string
	}{
		{missing, []string{missing, "read MCP config"}},
		{"", []string{"path is empty"}},
		{[]byte(`{"mcpServers":`), []string{"invalid JSON"}},
		{[]byte(`{"a":1} x`), []string{"invalid JSON"}},
		{[]byte(``), []string{"invalid JSON"}},
		{[]byte(`[1,2]`), []string{"JSON object", "an array"}},
		{[]byte(`null`), []string{"JSON object", "null"}},
		{[]byte(`{"mcpServers":[]}`), []string{`"mcpServers"`, "an array"}},
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

func TestParseMcpConfigMalformedEntryIsKeptWithItsProblem(t *testing.T) { // C3.9, C3.11
	cases := []struct {
		doc  string
		want []string
	}{
		{`{"srv":{"timeout":5}}`, []string{`"url"`, `"command"`}},
		{`{"srv":{"url":"http://x","tools":{"a":true,"b":"yes"}}}`, []string{`"tools"`, `"b"`, "true or false"}},
		{`{"srv":{"url":"http://x","tools":[]}}`, []string{`"tools"`}},
		{`{"srv":{"type":"grpc","url":"http://x"}}`, []string{`"grpc"`, "unknown"}},
		{`{"srv":{"type":"stdio","url":"http://x"}}`, []string{`"command"`}},
		{`{"srv":{"type":"local","url":"http://x"}}`, []string{`"command"`}},
		{`{"srv":{"type":"sse","command":"x"}}`, []string{`"url"`}},
		{`{"srv":{"url":"ftp://x"}}`, []string{"http(s) URL"}},
		{`{"srv":{"url":7}}`, []string{`"url"`, "a number"}},
		{`{"srv":{"command":[]}}`, []string{`"command"`, "empty"}},
		{`{"srv":{"command":""}}`, []string{`"command"`}},
		{`{"srv":{"command":{"p":"x"}}}`, []string{`"command"`, "an object"}},
		{`{"srv":{"command":"x","args":"-v"}}`, []string{`"args"`}},
		{`{"srv":{"command":"x","cwd":5}}`, []string{`"cwd"`}},
		{`{"srv":{"command":"x","headers":{"A":{"v":1}}}}`, []string{`"headers"`, `"A"`, "an object"}},
		{`{"srv":{"command":"x","env":{"A":[1]}}}`, []string{`"env"`, `"A"`, "an array"}},
		{`{"srv":{"command":"x","environment":5}}`, []string{`"environment"`, "a number"}},
		{`{"srv":5}`, []string{"a number"}},
		{`{"srv":"x"}`, []string{"a string"}},
		{`{"srv":null}`, []string{"null"}},
	}
	for _, c := range cases {
		entries, err := parseMcpEntries([]byte(`{"ok":{"url":"http://127.0.0.1:1/mcp"},` + c.doc[1:]))
		if err != nil {
			t.Errorf("%s: load error %v, want the server kept", c.doc, err)
			continue
		}
		if len(entries) != 2 || entries[0].cfg.check() != nil {
			t.Errorf("%s: the good server is not kept as it was: %+v", c.doc, entries)
			continue
		}
		problem := entries[1].cfg.check()
		if entries[1].name != "srv" || problem == nil {
			t.Errorf("%s: no problem recorded", c.doc)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(problem.Error(), w) {
				t.Errorf("%s: problem %q lacks %q", c.doc, problem, w)
			}
		}
	}
	// A Go map is checked the same way, at load.
	cfg, err := ParseMcpConfig(McpConfig{"srv": {Type: "bogus"}})
	if err != nil || cfg["srv"].check() == nil || !strings.Contains(cfg["srv"].check().Error(), `"bogus"`) {
		t.Fatalf("typed config: %v %v", cfg, err)
	}
}

func TestParseMcpConfigLenientReadings(t *testing.T) { // C3.7, C3.11, C3.12
	cfg, err := ParseMcpConfig([]byte(`{
		"strtimeout": {"command":"x","timeout":"5000"},
		"zero":       {"command":"x","timeout":0},
		"negative":   {"command":"x","timeout":-1},
		"fraction":   {"command":"x","timeout":0.5},
		"huge":       {"command":"x","timeout":1e300},
		"strenabled": {"command":"x","enabled":"false"},
		"strdisabled":{"command":"x","disabled":"true"},
		"numbers":    {"command":"x","environment":{"N":42,"F":1.50,"B":true,"Z":null,"S":"s"},"headers":{"H":7}}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	for name, sc := range cfg {
		if sc.check() != nil {
			t.Errorf("%s: unexpected problem %v", name, sc.check())
		}
	}
	for _, name := range []string{"strtimeout", "zero", "negative"} {
		if cfg[name].timeout() != 30*time.Second {
			t.Errorf("%s: timeout %v, want the 30 s default", name, cfg[name].timeout())
		}
	}
	if cfg["fraction"].timeout() != time.Millisecond || cfg["huge"].Timeout <= 0 {
		t.Errorf("fraction %v, huge %d", cfg["fraction"].timeout(), cfg["huge"].Timeout)
	}
	if !cfg["strenabled"].isEnabled() || !cfg["strdisabled"].isEnabled() {
		t.Error("a string enabled/disabled must leave the server enabled")
	}
	env := cfg["numbers"].Env
	if len(env) != 4 || env["N"] != "42" || env["F"] != "1.50" || env["B"] != "true" || env["S"] != "s" {
		t.Errorf("env %v: numbers and booleans are kept as their JSON text, null dropped", env)
	}
	if cfg["numbers"].Headers["H"] != "7" {
		t.Errorf("headers %v", cfg["numbers"].Headers)
	}
}

func TestParseMcpConfigEnvironmentBeatsEnv(t *testing.T) { // C3.17-C3.19
	cfg, err := ParseMcpConfig([]byte(`{
		"both":   {"command":"x","environment":{"TNX_FOO":"a"},"env":{"TNX_FOO":"b","OTHER":"o"}},
		"empty":  {"command":"x","environment":{},"env":{"TNX_FOO":"b"}},
		"null":   {"command":"x","environment":null,"env":{"TNX_FOO":"b"}},
		"alias":  {"command":"x","env":{"TNX_FOO":"b"}},
		"badenv": {"command":"x","environment":{"TNX_FOO":"a"},"env":"ignored"}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"both": `{"TNX_FOO":"a"}`, "empty": `{}`, "null": `{"TNX_FOO":"b"}`, "alias": `{"TNX_FOO":"b"}`, "badenv": `{"TNX_FOO":"a"}`}
	for name, w := range want {
		got := map[string]string{}
		for k, v := range cfg[name].Env {
			got[k] = v
		}
		if mcpJSON(t, got) != w || cfg[name].check() != nil {
			t.Errorf("%s: env %s (problem %v), want %s", name, mcpJSON(t, got), cfg[name].check(), w)
		}
	}
}

func TestParseMcpConfigKeepsWrittenOrder(t *testing.T) { // C2.8, C5.6
	entries, err := parseMcpEntries([]byte(`{"mcpServers":{"zeta":{"url":"http://h/1"},"x.y":{"url":"http://h/2"},"alpha":{"url":"http://h/3"},"x":{"url":"http://h/4"},"zeta":{"url":"http://h/5"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.name+"="+e.cfg.URL)
	}
	// A repeated name keeps its first place and its last value, as JSON.parse does.
	sameMcpNames(t, "order", names, []string{"zeta=http://h/5", "x.y=http://h/2", "alpha=http://h/3", "x=http://h/4"})
	// A Go map has no order: sorted.
	entries, _ = parseMcpEntries(map[string]any{"b": map[string]any{"url": "http://h"}, "a": map[string]any{"url": "http://h"}})
	if len(entries) != 2 || entries[0].name != "a" || entries[1].name != "b" {
		t.Fatalf("map order %+v", entries)
	}
}

func TestParseMcpConfigWrapperPrecedence(t *testing.T) { // C3.3
	cases := map[string][]string{
		`{"mcpServers":{"a":{"url":"http://h"}},"servers":{"b":{"url":"http://h"}}}`: {"a"},
		`{"servers":{"b":{"url":"http://h"}},"mcpServers":{"a":{"url":"http://h"}}}`: {"a"},
		`{"servers":{"b":{"url":"http://h"}},"mcp":{"c":{"url":"http://h"}}}`:        {"b"},
		`{"mcp":{"c":{"url":"http://h"}},"servers":{"b":{"url":"http://h"}}}`:        {"b"},
		`{"mcpServers":null,"servers":{"b":{"url":"http://h"}}}`:                     nil,
		`{"mcp":{"builtins":{"url":"http://h"}}}`:                                    {"builtins"},
	}
	for doc, want := range cases {
		entries, err := parseMcpEntries([]byte(doc))
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		var got []string
		for _, e := range entries {
			got = append(got, e.name)
		}
		sameMcpNames(t, doc, got, want)
	}
}

func TestParseMcpConfigBareMapDropsReservedKeys(t *testing.T) { // C3.2
	entries, err := parseMcpEntries([]byte(`{"builtins":{"bash":true},"s":{"url":"http://h"},"agents":[],"a2a":{"url":"http://h"},"mcpServer":{"url":"http://h"},"t":{"command":"x"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 || entries[0].name != "s" || entries[1].name != "t" {
		t.Fatalf("entries %+v", entries)
	}
}

func TestParseMcpConfigNeverEchoesHeaderValues(t *testing.T) {
	for _, doc := range []string{
		`{"srv":{"url":"http://x","headers":{"Authorization":["s3cret"]}}}`,
		`{"srv":{"url":"http://x","headers":{"Authorization":{"v":"s3cret"}}}}`,
		`{"srv":{"command":"x","env":{"K":["s3cret"]}}}`,
	} {
		cfg, err := ParseMcpConfig([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		problem := cfg["srv"].check()
		if problem == nil || strings.Contains(problem.Error(), "s3cret") {
			t.Fatalf("%s: want a problem without the value, got %v", doc, problem)
		}
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

func TestExpandEnvHeaders(t *testing.T) { // C3.14
	t.Setenv("TN_TOKEN", "abc")
	os.Unsetenv("TN_UNSET_VAR")
	got := ExpandEnvHeaders(map[string]string{
		"Authorization": "Bearer ${TN_TOKEN}", "X": "${TN_UNSET_VAR}-$PLAIN",
		"A": "a${TN_UNSET_VAR}b", "B": "$TN_TOKEN", "C": "${TN_TOKEN:-d}", "D": "${TN_TOKEN}${TN_TOKEN}",
	})
	if got["Authorization"] != "Bearer abc" || got["X"] != "-$PLAIN" || got["A"] != "ab" || got["B"] != "$TN_TOKEN" || got["C"] != "${TN_TOKEN:-d}" || got["D"] != "abcabc" {
		t.Fatalf("got %v", got)
	}
	if ExpandEnvHeaders(nil) != nil {
		t.Fatal("nil in must give nil out")
	}
}
