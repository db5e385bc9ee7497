package errkind

import (
	"strings"
	"testing"
)

func TestKindFirstMatchingRuleWins(t *testing.T) {
	tb, err := Parse("t.json", []byte(`{"rules": [
		{"kind": "cancelled", "is": ["asyncio.exceptions.CancelledError"]},
		{"kind": "deadline", "is": ["TimeoutError"]},
		{"kind": "invalid", "is": ["ValueError"], "ops": ["mcp.load"]},
		{"kind": "invalid", "message": "(?i)parse mcp config"}
	]}`))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		op, typ, msg string
		chain        []Entry
		want         string
	}{
		{"mcp.load", "json.decoder.JSONDecodeError", "bad", []Entry{{Type: "json.decoder.JSONDecodeError", Is: []string{"ValueError"}, Message: "bad"}}, Invalid},
		{"client.run", "json.decoder.JSONDecodeError", "bad", []Entry{{Type: "json.decoder.JSONDecodeError", Is: []string{"ValueError"}, Message: "bad"}}, Failed},
		// A cancel wrapped in something else is still the cancel, whatever comes first in the table.
		{"mcp.list", "ExceptionGroup", "x", []Entry{{Type: "ExceptionGroup", Message: "x"}, {Type: "TimeoutError", Message: "t"}, {Type: "asyncio.exceptions.CancelledError", Message: ""}}, Cancelled},
		{"mcp.load", "*fmt.wrapError", "Parse MCP config: eof", nil, Invalid},
		{"mcp.load", "*errors.errorString", "boom", nil, Failed},
	}
	for _, c := range cases {
		if got := tb.Kind(c.op, c.typ, c.msg, c.chain); got != c.want {
			t.Errorf("Kind(%s, %s, %q) = %s, want %s", c.op, c.typ, c.msg, got, c.want)
		}
	}
	var none *Table
	if got := none.Kind("mcp.load", "x", "y", nil); got != Failed {
		t.Errorf("nil table: %s", got)
	}
}

func TestParseRejectsBadTables(t *testing.T) {
	for src, want := range map[string]string{
		`{"rules": [{"kind": "oops", "is": ["X"]}]}`:       `kind "oops"`,
		`{"rules": [{"kind": "invalid"}]}`:                 `needs "is" or "message"`,
		`{"rules": [{"kind": "invalid", "message": "("}]}`: "message:",
		`{"rules": [{"kind": "invalid", "type": ["X"]}]}`:  "unknown field",
		`not json`: "invalid character",
	} {
		_, err := Parse("runners/x/errors.json", []byte(src))
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "runners/x/errors.json") {
			t.Errorf("Parse(%s) = %v, want an error naming the file and %q", src, err, want)
		}
	}
}
