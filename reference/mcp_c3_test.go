package toolnexus

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

func TestWrappersFromFileAndInline(t *testing.T) { // C3.1
	a, b := startStreamable(t, "a"), startStreamable(t, "b")
	servers := `{"one":{"url":"` + a.URL() + `"},"two":{"url":"` + b.URL() + `"}}`
	var first string
	for _, wrapper := range []string{"mcpServers", "servers", "mcp"} {
		doc := `{"` + wrapper + `":` + servers + `}`
		var inline map[string]any
		if err := json.Unmarshal([]byte(doc), &inline); err != nil {
			t.Fatal(err)
		}
		for _, in := range []any{writeMcpConfig(t, doc), inline} {
			src := loadMcpOK(t, in)
			got := strings.Join(exposedNames(src.Tools), ",") + " " + mcpJSON(t, src.Status)
			if first == "" {
				first = got
			}
			if got != first || !strings.Contains(got, "one_a,two_b") {
				t.Fatalf("%s (%T): %s, want %s", wrapper, in, got, first)
			}
		}
	}
}

func TestReservedKeysAreNotServers(t *testing.T) { // C3.2
	good, decoy := startStreamable(t, "a"), startStreamable(t, "a")
	d := `{"url":"` + decoy.URL() + `"}`
	src := loadMcpOK(t, []byte(`{"builtins":`+d+`,"s":{"url":"`+good.URL()+`"},"agents":`+d+`,"a2a":`+d+`,"mcpServer":`+d+`}`))
	if mcpJSON(t, src.Status) != `{"s":"connected"}` || decoy.conns.Load() != 0 {
		t.Fatalf("status %v, decoy connections %d", src.Status, decoy.conns.Load())
	}
}

func TestDisabledFormsConnectNothing(t *testing.T) { // C3.6
	f := startStreamable(t, "a")
	u := `"url":"` + f.URL() + `"`
	src := loadMcpOK(t, []byte(`{
		"a":{`+u+`,"disabled":true},
		"b":{`+u+`,"enabled":false},
		"c":{`+u+`,"disabled":false,"enabled":false},
		"d":{`+u+`,"disabled":true,"enabled":true},
		"e":{"disabled":true,"type":"bogus"}}`))
	for _, name := range []string{"a", "b", "c", "d", "e"} {
		if src.Status[name] != StatusDisabled {
			t.Fatalf("%s: status %v", name, src.Status)
		}
	}
	if f.conns.Load() != 0 || len(src.Tools) != 0 {
		t.Fatalf("connections %d, tools %v", f.conns.Load(), exposedNames(src.Tools))
	}
}

func TestMalformedEntriesFailAlone(t *testing.T) { // C3.4, C3.9, C3.11, C3.12, C3.7
	warns := recordMcpWarnings(t)
	good := startStreamable(t, "a")
	untouched := startStreamable(t, "a")
	u := `"url":"` + good.URL() + `"`
	doc := `{"mcpServers":{
		"plain":      {` + u + `},
		"strtimeout": {` + u + `,"timeout":"5000"},
		"zero":       {` + u + `,"timeout":0},
		"strenabled": {` + u + `,"enabled":"false"},
		"closed":     {"url":"` + closedMcpURL(t) + `","timeout":2000},
		"missing":    {"command":"/definitely/not/here/tnx"},
		"noexe":      {"command":"tnx-no-such-program-b1c0"},
		"number":     5,
		"local-url":  {"type":"local","url":"` + untouched.URL() + `"},
		"badfilter":  {` + u + `,"tools":{"a":"yes"}},
		"emptycmd":   {"command":[]}
	}}`
	src, err := LoadMcpWithContext(context.Background(), []byte(doc))
	if err != nil {
		t.Fatalf("a malformed entry must not fail the load: %v", err)
	}
	defer src.Close()
	want := map[string]McpStatus{
		"plain": StatusConnected, "strtimeout": StatusConnected, "zero": StatusConnected, "strenabled": StatusConnected,
		"closed": StatusFailed, "missing": StatusFailed, "noexe": StatusFailed, "number": StatusFailed,
		"local-url": StatusFailed, "badfilter": StatusFailed, "emptycmd": StatusFailed,
	}
	if mcpJSON(t, src.Status) != mcpJSON(t, want) {
		t.Fatalf("status %s, want %s", mcpJSON(t, src.Status), mcpJSON(t, want))
	}
	sameMcpNames(t, "tools", exposedNames(src.Tools), []string{"plain_a", "strtimeout_a", "zero_a", "strenabled_a"})
	if untouched.conns.Load() != 0 {
		t.Fatal(`type "local" with only a url was reached over HTTP: the explicit type must win`)
	}
	for name, st := range want {
		if st == StatusFailed && countMcpWarnings(warns(), `MCP server "`+name+`" failed: `) != 1 {
			t.Errorf("no single warning for %s: %q", name, warns())
		}
	}
}

func TestHeadersExpandOnEveryRequest(t *testing.T) { // C3.13-C3.15
	t.Setenv("TNX_TEST_SECRET", "s3cr3t-9f2c")
	t.Setenv("TNX_TEST_UNSET", "")
	os.Unsetenv("TNX_TEST_UNSET")
	headers := map[string]any{
		"Authorization": "Bearer ${TNX_TEST_SECRET}",
		"X-A":           "a${TNX_TEST_UNSET}b",
		"X-B":           "$TNX_TEST_SECRET",
		"X-C":           "${TNX_TEST_SECRET:-d}",
	}
	want := map[string]string{"Authorization": "Bearer s3cr3t-9f2c", "X-A": "ab", "X-B": "$TNX_TEST_SECRET", "X-C": "${TNX_TEST_SECRET:-d}"}
	for kind, f := range map[string]*fakeMcpHTTP{"streamable": startStreamable(t, "a"), "sse": startSSEOnly(t, "a")} {
		src := loadMcpOK(t, map[string]any{"s": mcpHTTPEntry(f.URL(), map[string]any{"headers": headers})})
		if res := executeByName(t, src.Tools, "s_a", map[string]any{"x": "1"}); res.IsError {
			t.Fatalf("%s: %+v", kind, res)
		}
		methods := map[string]bool{}
		for _, r := range f.seen() {
			methods[r.Method] = true
			for k, v := range want {
				if r.Header.Get(k) != v {
					t.Fatalf("%s: %s %s has %s=%q, want %q", kind, r.Method, r.URL, k, r.Header.Get(k), v)
				}
			}
		}
		if !methods[http.MethodPost] || (kind == "sse" && !methods[http.MethodGet]) {
			t.Fatalf("%s: methods seen %v", kind, methods)
		}
	}
}

func TestHeaderSecretNeverInMessages(t *testing.T) { // C3.16
	const secret = "s3cr3t-9f2c"
	t.Setenv("TNX_TEST_SECRET", secret)
	warns := recordMcpWarnings(t)
	var seen []string
	// A server that rejects the request and echoes the credential back in every way.
	echo401 := startFakeMcpHTTP(t, func(*fakeMcpHTTP) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			auth := r.Header.Get("Authorization")
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token", error_description="`+auth+`"`)
			http.Error(w, "bad credential: "+auth, http.StatusUnauthorized)
		})
	})
	good := startStreamable(t, "a")
	// A tool whose JSON-RPC error quotes the credential it was called with.
	leaky := rawFakeOf("leak")
	inner := leaky.streamable(false)
	leak := startFakeMcpHTTP(t, func(*fakeMcpHTTP) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			_ = json.Unmarshal(body, &m)
			if m.Method == "tools/call" {
				msg, _ := json.Marshal("denied for " + r.Header.Get("Authorization"))
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"error":{"code":-32000,"message":`+string(msg)+`}}`)
				return
			}
			r.Body = io.NopCloser(strings.NewReader(string(body)))
			inner.ServeHTTP(w, r)
		})
	})
	hang, _ := startTCPHang(t)
	h := map[string]any{"Authorization": "Bearer ${TNX_TEST_SECRET}", "X-Token": "${TNX_TEST_SECRET}"}
	loads := []struct {
		cfg    map[string]any
		cancel time.Duration
	}{
		{map[string]any{"ok": mcpHTTPEntry(good.URL(), map[string]any{"headers": h})}, 0},
		{map[string]any{"leak": mcpHTTPEntry(leak.URL(), map[string]any{"headers": h})}, 0},
		{map[string]any{"denied": mcpHTTPEntry(echo401.URL(), map[string]any{"headers": h})}, 0},
		{map[string]any{"gone": mcpHTTPEntry(closedMcpURL(t), map[string]any{"headers": h, "timeout": 2000})}, 0},
		{map[string]any{"hang": mcpHTTPEntry(hang, map[string]any{"headers": h})}, 100 * time.Millisecond},
	}
	for _, l := range loads {
		ctx, cancel := context.WithCancel(context.Background())
		if l.cancel > 0 {
			time.AfterFunc(l.cancel, cancel)
		}
		src, err := LoadMcpWithContext(ctx, l.cfg)
		cancel()
		if err != nil {
			seen = append(seen, err.Error())
			if l.cancel == 0 || !errors.Is(err, context.Canceled) {
				t.Fatalf("load %v: %v", l.cfg, err)
			}
			continue
		}
		seen = append(seen, mcpJSON(t, src.Status))
		for _, tool := range src.Tools {
			res := executeByName(t, []Tool{tool}, tool.Name, map[string]any{"x": "1"})
			seen = append(seen, res.Output)
			if tool.Name == "leak_leak" && (!res.IsError || !strings.Contains(res.Output, "denied for [redacted]")) {
				t.Fatalf("leak: %+v", res)
			}
		}
		src.Close()
	}
	seen = append(seen, warns()...)
	if countMcpWarnings(warns(), `"denied" failed`) != 1 {
		t.Fatalf("the 401 server was not reported: %q", warns())
	}
	for _, s := range seen {
		if strings.Contains(s, secret) {
			t.Fatalf("the secret leaked: %q", s)
		}
	}
	// And the redaction itself hides the whole header before its parts.
	if got := redactMcp("auth Bearer "+secret+" and "+secret, []string{secret, "Bearer " + secret}); got != "auth [redacted] and [redacted]" {
		t.Fatalf("redact: %q", got)
	}
}
