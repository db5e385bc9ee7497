package errkind

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPortTablesLoad: every runners/<port>/errors.json the harness ships parses.
func TestPortTablesLoad(t *testing.T) {
	files, _ := filepath.Glob("../../runners/*/errors.json")
	if len(files) == 0 {
		t.Fatal("no runners/*/errors.json found")
	}
	for _, f := range files {
		if _, err := Load(f); err != nil {
			t.Error(err)
		}
	}
}

// TestGoTable judges errors as the Go adapter relays them (runners/go/errors.go).
func TestGoTable(t *testing.T) {
	if _, err := os.Stat("../../runners/go/errors.json"); err != nil {
		t.Skip(err)
	}
	tb, err := Load("../../runners/go/errors.json")
	if err != nil {
		t.Fatal(err)
	}
	wrapped := func(msg string, is ...string) []Entry {
		return []Entry{{Type: "*fmt.wrapError", Message: msg, Is: is}, {Type: "*errors.errorString", Message: "inner", Is: is}}
	}
	cases := []struct {
		op    string
		chain []Entry
		want  string
	}{
		{"mcp.load", wrapped("mcp: load: context canceled", "context.Canceled"), Cancelled},
		{"mcp.list", wrapped("list: context deadline exceeded", "context.DeadlineExceeded"), Deadline},
		// The caller's cancel wins over a config-looking message.
		{"mcp.load", wrapped("parse mcp config: context canceled", "context.Canceled"), Cancelled},
		{"mcp.load", wrapped("parse mcp config: boom"), Invalid},
		{"toolkit.create", []Entry{{Type: "*fs.PathError", Message: "open /x: no such file"}}, Invalid},
		{"client.run", wrapped("invalid but not a config op"), Failed},
		{"client.run", wrapped(`toolnexus: ClientOptions.Style "x" is not a known style`), Invalid},
		{"mcp.load", wrapped("connection refused"), Failed},
	}
	for _, c := range cases {
		if got := tb.Kind(c.op, c.chain[0].Type, c.chain[0].Message, c.chain); got != c.want {
			t.Errorf("%s %q: %s, want %s", c.op, c.chain[0].Message, got, c.want)
		}
	}
}

// TestRelayedTables judges errors as the python, js and csharp adapters relay them.
func TestRelayedTables(t *testing.T) {
	e := func(typ string, is ...string) Entry { return Entry{Type: typ, Is: is, Message: "m"} }
	cases := []struct {
		port, op string
		chain    []Entry
		want     string
	}{
		{"python", "mcp.load", []Entry{e("ExceptionGroup", "Exception"), e("asyncio.exceptions.CancelledError")}, Cancelled},
		{"python", "client.run", []Entry{e("toolnexus.client.RunTimeout", "TimeoutError", "OSError", "Exception")}, Deadline},
		{"python", "mcp.load", []Entry{e("json.decoder.JSONDecodeError", "ValueError", "Exception")}, Invalid},
		{"python", "mcp.load", []Entry{e("httpx.ConnectError", "httpx.TransportError", "Exception")}, Failed},
		{"js", "mcp.list", []Entry{e("AbortError", "DOMException")}, Cancelled},
		{"js", "mcp.list", []Entry{e("TimeoutError", "DOMException")}, Deadline},
		{"js", "mcp.load", []Entry{e("SyntaxError", "Error")}, Invalid},
		{"js", "client.run", []Entry{e("SyntaxError", "Error")}, Failed},
		{"csharp", "mcp.load", []Entry{e("System.Threading.Tasks.TaskCanceledException", "System.OperationCanceledException", "System.SystemException")}, Cancelled},
		{"csharp", "mcp.load", []Entry{e("System.AggregateException"), e("System.TimeoutException", "System.SystemException")}, Deadline},
		{"csharp", "mcp.load", []Entry{e("System.ArgumentNullException", "System.ArgumentException", "System.SystemException")}, Invalid},
		{"java", "mcp.load", []Entry{e("java.util.concurrent.CompletionException", "java.lang.RuntimeException"), e("java.util.concurrent.CancellationException", "java.lang.IllegalStateException")}, Cancelled},
		{"java", "mcp.load", []Entry{e("com.fasterxml.jackson.core.io.JsonEOFException", "com.fasterxml.jackson.core.JsonProcessingException", "java.io.IOException")}, Invalid},
		{"java", "client.run", []Entry{e("com.fasterxml.jackson.core.io.JsonEOFException", "com.fasterxml.jackson.core.JsonProcessingException", "java.io.IOException")}, Failed},
		{"java", "client.run", []Entry{e("java.lang.NumberFormatException", "java.lang.IllegalArgumentException", "java.lang.RuntimeException")}, Invalid},
	}
	for _, c := range cases {
		tb, err := Load("../../runners/" + c.port + "/errors.json")
		if err != nil {
			t.Fatal(err)
		}
		if got := tb.Kind(c.op, c.chain[0].Type, "m", c.chain); got != c.want {
			t.Errorf("%s %s %v: %s, want %s", c.port, c.op, c.chain, got, c.want)
		}
	}
}
