package toolnexus

import (
	"testing"
)

func TestToolsFilter(t *testing.T) {
	f := startStreamable(t, "a", "b", "c")
	cases := []struct {
		id     string
		filter map[string]any // nil = no "tools" key
		want   []string
		warned []string
	}{
		{"G7.1 allowlist", map[string]any{"a": true, "b": true}, []string{"srv_a", "srv_b"}, nil},
		{"G7.2 drop-list", map[string]any{"c": false}, []string{"srv_a", "srv_b"}, nil},
		{"G7.3 unknown name", map[string]any{"a": true, "nope": true}, []string{"srv_a"}, []string{"nope"}},
		{"G7.4 no map", nil, []string{"srv_a", "srv_b", "srv_c"}, nil},
		{"G7.4 empty map", map[string]any{}, []string{"srv_a", "srv_b", "srv_c"}, nil},
		{"G7.7 mixed", map[string]any{"a": true, "c": false}, []string{"srv_a"}, nil},
		{"drop-list unknown", map[string]any{"zzz": false}, []string{"srv_a", "srv_b", "srv_c"}, []string{"zzz"}},
		{"all false", map[string]any{"a": false, "b": false, "c": false}, nil, nil},
		{"prefixed name is not original", map[string]any{"srv_a": true}, nil, []string{"srv_a"}},
	}
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			warns := recordMcpWarnings(t)
			entry := mcpHTTPEntry(f.URL(), nil)
			if c.filter != nil {
				entry["tools"] = c.filter
			}
			src := loadMcpOK(t, map[string]any{"mcpServers": map[string]any{"srv": entry}})
			sameMcpNames(t, "tools", mcpToolNames(src.Tools), c.want)
			if len(warns()) != len(c.warned) {
				t.Fatalf("warnings %q, want one each for %q", warns(), c.warned)
			}
			for _, k := range c.warned {
				line := `[toolnexus] server "srv" tools filter name "` + k + `" matched no tool`
				if countMcpWarnings(warns(), line) != 1 {
					t.Fatalf("warnings %q lack %q", warns(), line)
				}
			}
		})
	}
}

func TestToolsFilterWarnsOncePerServerPerLoad(t *testing.T) { // G7.3
	warns := recordMcpWarnings(t)
	f := startStreamable(t, "a", "b")
	cfg := map[string]any{
		"one": mcpHTTPEntry(f.URL(), map[string]any{"tools": map[string]any{"a": true, "nope": true}}),
		"two": mcpHTTPEntry(f.URL(), map[string]any{"tools": map[string]any{"nope": false}}),
	}
	src := loadMcpOK(t, cfg)
	sameMcpNames(t, "tools", mcpToolNames(src.Tools), []string{"one_a", "two_a", "two_b"})
	loadMcpOK(t, cfg)
	for _, srv := range []string{"one", "two"} {
		line := `server "` + srv + `" tools filter name "nope" matched no tool`
		if n := countMcpWarnings(warns(), line); n != 2 {
			t.Fatalf("%q seen %d times over two loads: %q", line, n, warns())
		}
	}
}

func TestToolsFilterFromFile(t *testing.T) { // G7.5
	f := startStreamable(t, "a", "b", "c")
	path := writeMcpConfig(t, `{"mcpServers":{"srv":{"type":"remote","url":"`+f.URL()+`","tools":{"a":true,"b":true}}}}`)
	src := loadMcpOK(t, path)
	sameMcpNames(t, "tools", mcpToolNames(src.Tools), []string{"srv_a", "srv_b"})
}

func TestToolsFilterMatchesOriginalNames(t *testing.T) { // G7.6
	warns := recordMcpWarnings(t)
	f := startStreamable(t, "a", "get.balance")
	src := loadMcpOK(t, map[string]any{"my.srv": mcpHTTPEntry(f.URL(), map[string]any{"tools": map[string]any{"get.balance": true}})})
	sameMcpNames(t, "tools", mcpToolNames(src.Tools), []string{"my_srv_get_balance"})
	res, err := src.Tools[0].Execute(map[string]any{"x": "1"}, nil)
	if err != nil || res.Output != `get.balance:{"x":"1"}` {
		t.Fatalf("execute calls the original name: %+v %v", res, err)
	}
	// The sanitized form is not an original name: it matches nothing and is warned about.
	src2 := loadMcpOK(t, map[string]any{"my.srv": mcpHTTPEntry(f.URL(), map[string]any{"tools": map[string]any{"get_balance": true}})})
	if len(src2.Tools) != 0 || countMcpWarnings(warns(), `"get_balance" matched no tool`) != 1 {
		t.Fatalf("tools %v, warnings %q", mcpToolNames(src2.Tools), warns())
	}
}
