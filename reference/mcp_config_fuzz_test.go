package toolnexus

import (
	"encoding/json"
	"testing"
)

// FuzzParseMcpConfig: arbitrary bytes never panic, a server with a bad type always carries
// a problem, and an accepted config survives a marshal/parse round trip under a wrapper with
// the same servers.
func FuzzParseMcpConfig(f *testing.F) {
	for _, seed := range []string{
		`{"mcpServers":{"s":{"url":"http://127.0.0.1:1/mcp","tools":{"a":true,"b":false}}}}`,
		`{"servers":{"l":{"type":"local","command":["npx","-y","x"],"env":{"A":"1"},"timeout":100}}}`,
		`{"mcp":{"x":{"type":"sse","url":"https://h/sse","headers":{"A":"${B}"},"enabled":false}}}`,
		`{"s":{"command":"c","args":["a"],"disabled":true},"builtins":{}}`,
		`{"s":{"type":"bogus"}}`, `[]`, `null`, `{"s":null}`, `{"s":{"tools":{"a":1}}}`, `{`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := ParseMcpConfig(data)
		if err != nil {
			return
		}
		for name, sc := range cfg {
			if _, kerr := sc.kind(); kerr != nil && sc.check() == nil {
				t.Fatalf("server %q has a bad type but no problem: %v", name, kerr)
			}
		}
		again, err := json.Marshal(map[string]any{"mcpServers": cfg})
		if err != nil {
			t.Fatalf("marshal accepted config: %v", err)
		}
		back, err := ParseMcpConfig(again)
		if err != nil {
			t.Fatalf("round trip of %s rejected: %v", again, err)
		}
		if len(back) != len(cfg) {
			t.Fatalf("round trip changed the servers: %d -> %d", len(cfg), len(back))
		}
	})
}
