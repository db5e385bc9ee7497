package toolnexus

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func rawFakeOf(names ...string) *rawMcpFake {
	f := &rawMcpFake{}
	for _, n := range names {
		f.tools = append(f.tools, rawTool(n, textResult("from "+n)))
	}
	return f
}

func exposedNames(tools []Tool) []string {
	out := make([]string, 0, len(tools))
	for _, t := range tools {
		out = append(out, t.Name)
	}
	return out
}

func TestToolsFollowConfigOrderHoweverLateAServerAnswers(t *testing.T) { // C2.8, C5.6
	warns := recordMcpWarnings(t)
	slow := rawFakeOf("t", "z")
	slow.listDelay = 400 * time.Millisecond
	fast := rawFakeOf("y.t", "b", "a")
	slowURL, fastURL := startRawStreamable(t, slow, false).URL(), startRawStreamable(t, fast, false).URL()
	// "x.y" is written first and answers last; sorted names would put "x" first.
	path := writeMcpConfig(t, `{"mcpServers":{"x.y":{"url":"`+slowURL+`"},"x":{"url":"`+fastURL+`"}}}`)
	src := loadMcpOK(t, path)
	sameMcpNames(t, "order", exposedNames(src.Tools), []string{"x_y_t", "x_y_z", "x_b", "x_a"})
	if res := executeByName(t, src.Tools, "x_y_t", nil); res.Output != "from t" || res.Metadata["server"] != "x.y" {
		t.Fatalf("the kept x_y_t is not x.y's: %+v", res)
	}
	if n := countMcpWarnings(warns(), `[toolnexus] duplicate tool name "x_y_t" — keeping first`); n != 1 || len(warns()) != 1 {
		t.Fatalf("warnings %q", warns())
	}
	// The same through the toolkit, and a []byte config keeps the order too.
	tk, err := CreateToolkit(t.Context(), Options{Builtins: false, McpConfig: []byte(`{"servers":{"x":{"url":"` + fastURL + `"},"x.y":{"url":"` + slowURL + `"}}}`)})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	sameMcpNames(t, "toolkit order", exposedNames(tk.Tools()), []string{"x_y_t", "x_b", "x_a", "x_y_z"})
	if res, _ := tk.Execute(t.Context(), "x_y_t", nil); res.Output != "from y.t" {
		t.Fatalf("x is first this time: %+v", res)
	}
}

func TestDuplicateWithinAServerKeepsTheFirst(t *testing.T) { // C2.7
	warns := recordMcpWarnings(t)
	f := rawFakeOf("a.b", "a_b", "c")
	src := loadMcpOK(t, map[string]any{"s": map[string]any{"url": startRawStreamable(t, f, false).URL()}})
	sameMcpNames(t, "tools", exposedNames(src.Tools), []string{"s_a_b", "s_c"})
	if res := executeByName(t, src.Tools, "s_a_b", nil); res.Output != "from a.b" {
		t.Fatalf("got %+v", res)
	}
	if calls := f.seenCalls(); len(calls) != 1 || calls[0].Name != "a.b" {
		t.Fatalf("calls %+v", calls)
	}
	if n := countMcpWarnings(warns(), `"s_a_b"`); n != 1 {
		t.Fatalf("warnings %q", warns())
	}
}

func TestAwkwardNames(t *testing.T) { // C2.2-C2.5
	// 🚀 is two UTF-16 code units, so two "_" after the server's "x_" separator: x___launch
	// (the SPEC's JavaScript regex, C2.4).
	long := strings.Repeat("n", 70)
	f := rawFakeOf("get.balance", "send money", "café", "🚀launch", "2fa", long)
	url := startRawStreamable(t, f, false).URL()
	path := writeMcpConfig(t, `{"mcpServers":{"bank.v2":{"url":"`+url+`","tools":{"get.balance":true}},"my server":{"url":"`+url+`","tools":{"send money":true}},"9lives":{"url":"`+url+`","tools":{"2fa":true,"`+long+`":true}},"x":{"url":"`+url+`","tools":{"café":true,"🚀launch":true}}}}`)
	src := loadMcpOK(t, path)
	sameMcpNames(t, "names", exposedNames(src.Tools), []string{"bank_v2_get_balance", "my_server_send_money", "9lives_2fa", "9lives_" + long, "x_caf_", "x___launch"})
	executeByName(t, src.Tools, "bank_v2_get_balance", nil)
	if calls := f.seenCalls(); calls[len(calls)-1].Name != "get.balance" {
		t.Fatalf("tools/call used %q, want the original name", calls[len(calls)-1].Name)
	}
}

func TestPaginationFollowsNextCursor(t *testing.T) { // C3.21
	// The raw fake: three pages (2+2+1), order kept exactly as paged.
	f := rawFakeOf("p5", "p1", "p4", "p2", "p3")
	f.pageSize = 2
	src := loadMcpOK(t, map[string]any{"s": map[string]any{"url": startRawStreamable(t, f, false).URL()}})
	sameMcpNames(t, "raw pages", exposedNames(src.Tools), []string{"s_p5", "s_p1", "s_p4", "s_p2", "s_p3"})

	// The go-sdk's own server with a page size.
	s := mcp.NewServer(&mcp.Implementation{Name: "paged", Version: "1"}, &mcp.ServerOptions{PageSize: 2})
	for i := range 5 {
		name := fmt.Sprintf("t%d", i)
		s.AddTool(&mcp.Tool{Name: name, InputSchema: fakeMcpSchema}, fakeMcpHandler(name))
	}
	h := startFakeMcpHTTP(t, func(*fakeMcpHTTP) http.Handler {
		return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	})
	src2 := loadMcpOK(t, map[string]any{"s": map[string]any{"url": h.URL()}})
	sameMcpNames(t, "sdk pages", exposedNames(src2.Tools), []string{"s_t0", "s_t1", "s_t2", "s_t3", "s_t4"})
	lists := 0
	for _, r := range h.seen() {
		if r.Method == http.MethodPost {
			lists++
		}
	}
	if lists < 3+2 { // initialize-or-discover, initialized and at least three tools/list
		t.Fatalf("only %d POSTs: the pages were not walked", lists)
	}
}

func TestExposedSchemaKeepsEveryKey(t *testing.T) { // C5.8
	f := &rawMcpFake{tools: []rawFakeTool{
		{name: "extra", def: `{"name":"extra","inputSchema":{"type":"object","title":"T","description":"D","$schema":"https://json-schema.org/draft/2020-12/schema","properties":{"a":{"type":"string"}}}}`},
		{name: "defs", def: `{"name":"defs","inputSchema":{"type":"object","definitions":{"P":{"type":"string"}},"$defs":{"Q":{"type":"number"}},"properties":{"p":{"$ref":"#/definitions/P"}}}}`},
		{name: "anyof", def: `{"name":"anyof","inputSchema":{"type":"object","anyOf":[{"required":["a"]},{"required":["b"]}],"properties":{"a":{},"b":{}}}}`},
		{name: "reqempty", def: `{"name":"reqempty","inputSchema":{"type":"object","properties":{},"required":[]}}`},
		{name: "addtrue", def: `{"name":"addtrue","inputSchema":{"type":"object","properties":{"a":{}},"additionalProperties":true}}`},
		{name: "noprops", def: `{"name":"noprops","inputSchema":{"type":"object"}}`},
		{name: "nullprops", def: `{"name":"nullprops","inputSchema":{"type":"object","properties":null}}`},
	}}
	src := loadMcpOK(t, map[string]any{"s": map[string]any{"url": startRawStreamable(t, f, false).URL()}})
	want := map[string]string{
		"s_extra":     `{"$schema":"https://json-schema.org/draft/2020-12/schema","additionalProperties":false,"description":"D","properties":{"a":{"type":"string"}},"title":"T","type":"object"}`,
		"s_defs":      `{"$defs":{"Q":{"type":"number"}},"additionalProperties":false,"definitions":{"P":{"type":"string"}},"properties":{"p":{"$ref":"#/definitions/P"}},"type":"object"}`,
		"s_anyof":     `{"additionalProperties":false,"anyOf":[{"required":["a"]},{"required":["b"]}],"properties":{"a":{},"b":{}},"type":"object"}`,
		"s_reqempty":  `{"additionalProperties":false,"properties":{},"required":[],"type":"object"}`,
		"s_addtrue":   `{"additionalProperties":false,"properties":{"a":{}},"type":"object"}`,
		"s_noprops":   `{"additionalProperties":false,"properties":{},"type":"object"}`,
		"s_nullprops": `{"additionalProperties":false,"properties":{},"type":"object"}`,
	}
	for _, tool := range src.Tools {
		if got := mcpJSON(t, tool.InputSchema); got != want[tool.Name] {
			t.Errorf("%s: schema %s, want %s", tool.Name, got, want[tool.Name])
		}
	}
	if len(src.Tools) != len(want) {
		t.Fatalf("tools %v", exposedNames(src.Tools))
	}
}
