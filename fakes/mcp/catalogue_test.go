package mcpfake

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rawConn speaks newline-delimited JSON-RPC to an in-process fake, so a test controls the
// exact bytes sent and sees the exact bytes answered.
type rawConn struct {
	t     *testing.T
	w     io.WriteCloser
	lines chan []byte
}

func rawServe(t *testing.T, opts ServerOptions, stdio bool, env *toolEnv) *rawConn {
	t.Helper()
	s, err := newServer(opts, stdio, env)
	if err != nil {
		t.Fatal(err)
	}
	cr, cw := io.Pipe() // test -> server
	sr, sw := io.Pipe() // server -> test
	ss, err := s.Connect(context.Background(), &mcp.IOTransport{Reader: cr, Writer: sw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &rawConn{t: t, w: cw, lines: make(chan []byte, 64)}
	go func() {
		defer close(c.lines)
		br := bufio.NewReader(sr)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				c.lines <- line
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		_ = cw.Close()
		_ = ss.Close()
		_ = sr.Close()
		for range c.lines {
		}
	})
	return c
}

// request sends one request line and returns the raw answer line for its id.
func (c *rawConn) request(id int, method, params string) []byte {
	c.t.Helper()
	line := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q`, id, method)
	if params != "" {
		line += `,"params":` + params
	}
	if _, err := io.WriteString(c.w, line+"}\n"); err != nil {
		c.t.Fatal(err)
	}
	timeout := time.After(5 * time.Second)
	for {
		select {
		case l, ok := <-c.lines:
			if !ok {
				c.t.Fatalf("%s: connection ended", method)
			}
			var m struct {
				ID json.RawMessage `json:"id"`
			}
			if json.Unmarshal(l, &m) == nil && string(m.ID) == fmt.Sprint(id) {
				return l
			}
		case <-timeout:
			c.t.Fatalf("%s: no answer", method)
		}
	}
}

func (c *rawConn) handshake() {
	c.t.Helper()
	c.request(1, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`)
	if _, err := io.WriteString(c.w, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		c.t.Fatal(err)
	}
}

// callText calls a tool with raw params and returns its one text part.
func (c *rawConn) callText(id int, params string) string {
	c.t.Helper()
	var resp struct {
		Result struct {
			Content []struct{ Type, Text string }
		}
	}
	l := c.request(id, "tools/call", params)
	if err := json.Unmarshal(l, &resp); err != nil || len(resp.Result.Content) != 1 {
		c.t.Fatalf("tools/call %s: %s", params, l)
	}
	return resp.Result.Content[0].Text
}

// inMemory connects a go-sdk client to an in-process fake.
func inMemory(t *testing.T, opts ServerOptions, stdio bool) *mcp.ClientSession {
	t.Helper()
	s, err := newServer(opts, stdio, &toolEnv{})
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs := connect(t, ct)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// Every catalogue lists what CatalogueTools says, in its order, on stdio and on HTTP.
func TestCatalogueListings(t *testing.T) {
	for _, name := range Catalogues() {
		for _, stdio := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/stdio=%v", name, stdio), func(t *testing.T) {
				cs := inMemory(t, ServerOptions{Catalogue: name}, stdio)
				ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
				defer cancel()
				var got []*mcp.Tool
				for tool, err := range cs.Tools(ctx, nil) {
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, tool)
				}
				want := CatalogueTools(name, stdio)
				if len(got) != len(want) {
					t.Fatalf("listed %d tools, want %d (%q)", len(got), len(want), CatalogueToolNames(name, stdio))
				}
				for i, w := range want {
					g := got[i]
					if g.Name != w.Name || g.Description != w.Description {
						t.Errorf("tool %d: %q (%q), want %q (%q)", i, g.Name, g.Description, w.Name, w.Description)
					}
					if !reflect.DeepEqual(g.InputSchema, w.Schema()) {
						t.Errorf("%s: schema %v, want %s", w.Name, g.InputSchema, w.InputSchema)
					}
					if (g.OutputSchema != nil) != (w.OutputSchema != nil) {
						t.Errorf("%s: output schema %v, want %s", w.Name, g.OutputSchema, w.OutputSchema)
					}
				}
			})
		}
	}
	if CatalogueTools("nope", true) != nil || ValidCatalogue("nope") || !ValidCatalogue("") {
		t.Error("an unknown catalogue is known")
	}
	if _, err := NewServerWith(ServerOptions{Catalogue: "nope"}); err == nil {
		t.Error("NewServerWith took an unknown catalogue")
	}
	if got := CatalogueToolNames("", false); !slices.Equal(got, ToolNames()) {
		t.Errorf("default catalogue %q, ToolNames %q", got, ToolNames())
	}
	if len(LongToolName) != 70 {
		t.Errorf("LongToolName has %d characters", len(LongToolName))
	}
	awk := CatalogueToolNames(CatalogueAwkward, false)
	for _, n := range []string{"get.balance", "send money", "café", "🚀launch", "2fa", "a.b", "a_b", "t", "y.t", "patch", LongToolName, "echo"} {
		if !slices.Contains(awk, n) {
			t.Errorf("awkward lacks %q", n)
		}
	}
	if slices.Index(awk, "a.b") > slices.Index(awk, "a_b") {
		t.Error("awkward lists a_b before a.b")
	}
	if slices.Contains(CatalogueToolNames(CatalogueResults, false), "r_die") ||
		!slices.Contains(CatalogueToolNames(CatalogueResults, true), "r_die") {
		t.Error("r_die must be listed on stdio only")
	}
	if slices.Contains(CatalogueToolNames(CatalogueEnv, false), "env") {
		t.Error("env must be listed on stdio only")
	}
}

// The paged catalogue lists 2+2+1 tools linked by nextCursor.
func TestPagedListing(t *testing.T) {
	cs := inMemory(t, ServerOptions{Catalogue: CataloguePaged}, false)
	var sizes []int
	var names []string
	params := &mcp.ListToolsParams{}
	for range 5 {
		res, err := cs.ListTools(t.Context(), params)
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, len(res.Tools))
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
		}
		if res.NextCursor == "" {
			break
		}
		params = &mcp.ListToolsParams{Cursor: res.NextCursor}
	}
	if !slices.Equal(sizes, []int{2, 2, 1}) {
		t.Errorf("pages of %v, want [2 2 1]", sizes)
	}
	if want := CatalogueToolNames(CataloguePaged, false); !slices.Equal(names, want) {
		t.Errorf("paged %q, want %q", names, want)
	}
}

// Schemas, structured results and echoed arguments reach the wire as written.
func TestRawWire(t *testing.T) {
	t.Run("schemas", func(t *testing.T) {
		c := rawServe(t, ServerOptions{Catalogue: CatalogueSchema}, false, &toolEnv{})
		c.handshake()
		l := string(c.request(2, "tools/list", `{}`))
		for _, tool := range CatalogueTools(CatalogueSchema, false) {
			if !strings.Contains(l, `"inputSchema":`+string(tool.InputSchema)) {
				t.Errorf("%s: schema %s not on the wire: %s", tool.Name, tool.InputSchema, l)
			}
		}
		var list struct {
			Result struct{ Tools []struct{ Name string } }
		}
		_ = json.Unmarshal([]byte(l), &list)
		var names []string
		for _, tl := range list.Result.Tools {
			names = append(names, tl.Name)
		}
		if want := CatalogueToolNames(CatalogueSchema, false); !slices.Equal(names, want) {
			t.Errorf("listed %q, want %q", names, want)
		}
	})
	t.Run("echo", func(t *testing.T) {
		c := rawServe(t, ServerOptions{Catalogue: CatalogueAwkward}, false, &toolEnv{})
		c.handshake()
		for i, tc := range []struct{ name, args string }{
			{"echo", `{"big":9007199254740993,"one":1.0, "s" : "é<&>", "z":null}`},
			{"get.balance", `{"x":"1"}`},
			{"🚀launch", `{ }`},
			{"send money", `null`},
			{"echo", ``},
		} {
			params := `{"name":` + jsonString(tc.name)
			if tc.args != "" {
				params += `,"arguments":` + tc.args
			}
			got := c.callText(10+i, params+"}")
			var raw []byte
			if tc.args != "" {
				raw = []byte(tc.args)
			}
			if want := EchoOutput(tc.name, raw); got != want {
				t.Errorf("echo %s: got %s, want %s", tc.args, got, want)
			}
		}
		if got := EchoOutput("a", nil); got != `{"name":"a"}` {
			t.Errorf("EchoOutput without arguments: %s", got)
		}
		if got := EchoOutput("a<b", []byte(`{"n":1.0}`)); got != `{"name":"a<b","arguments":{"n":1.0}}` {
			t.Errorf("EchoOutput: %s", got)
		}
	})
	t.Run("results", func(t *testing.T) {
		c := rawServe(t, ServerOptions{Catalogue: CatalogueResults}, false, &toolEnv{})
		c.handshake()
		type part struct {
			Type, Text, MimeType, Data string
			Resource                   *struct{ URI, Text string }
		}
		type result struct {
			Content           []part
			IsError           bool
			StructuredContent json.RawMessage
		}
		call := func(id int, name string) (result, string) {
			l := c.request(id, "tools/call", `{"name":"`+name+`","arguments":{}}`)
			var resp struct {
				Result *result
				Error  *struct {
					Code    int
					Message string
				}
			}
			if err := json.Unmarshal(l, &resp); err != nil {
				t.Fatalf("%s: %v: %s", name, err, l)
			}
			if resp.Error != nil {
				return result{}, resp.Error.Message
			}
			return *resp.Result, ""
		}
		texts := func(r result) []string {
			var out []string
			for _, p := range r.Content {
				out = append(out, p.Type+":"+p.Text)
			}
			return out
		}
		escaped := strings.NewReplacer("<", `\u003c`, "&", `\u0026`, ">", `\u003e`)
		for i, tc := range []struct {
			name    string
			isError bool
			texts   []string
			struc   string
		}{
			{"r_text2", false, []string{"text:one", "text:two"}, ""},
			{"r_err2", true, []string{"text:bad", "text:worse"}, ""},
			{"r_err_blank", true, []string{"text:", "text:  "}, ""},
			{"r_struct", false, []string{"text:ignored"}, StructRaw},
			{"r_struct_err", true, []string{"text:struct failed"}, StructErrRaw},
			{"r_struct_empty", false, []string{"text:t"}, StructEmptyRaw},
			{"r_num", false, nil, NumRaw},
			{"r_image", false, []string{"image:"}, ""},
			{"r_mixed", false, []string{"text:A", "image:", "resource:", "text:B"}, ""},
			{"r_badout", false, nil, BadOutRaw},
		} {
			r, rpcErr := call(20+i, tc.name)
			if rpcErr != "" {
				t.Errorf("%s: JSON-RPC error %s", tc.name, rpcErr)
				continue
			}
			if r.IsError != tc.isError || !slices.Equal(texts(r), tc.texts) {
				t.Errorf("%s: isError %v content %q, want %v %q", tc.name, r.IsError, texts(r), tc.isError, tc.texts)
			}
			if got, want := string(r.StructuredContent), escaped.Replace(tc.struc); got != want {
				t.Errorf("%s: structuredContent %s, want %s", tc.name, got, want)
			}
		}
		r, _ := call(40, "r_mixed")
		if r.Content[1].MimeType != "image/png" || r.Content[1].Data == "" || r.Content[2].Resource == nil || r.Content[2].Resource.Text != "resource text" {
			t.Errorf("r_mixed parts %+v", r.Content)
		}
		if _, msg := call(41, "r_rpcerr"); msg != RPCErrorMessage {
			t.Errorf("r_rpcerr: error %q", msg)
		}
		// r_die is not listed over HTTP, nor callable.
		if _, msg := call(42, "r_die"); msg == "" {
			t.Error("r_die answered on a non-stdio server")
		}
		l := string(c.request(43, "tools/list", `{}`))
		if !strings.Contains(l, `"outputSchema":`+BadOutSchema) {
			t.Errorf("r_badout's output schema is not listed: %s", l)
		}
	})
	t.Run("die", func(t *testing.T) {
		died := make(chan struct{})
		c := rawServe(t, ServerOptions{Catalogue: CatalogueResults}, true, &toolEnv{die: func() { close(died) }})
		c.handshake()
		if _, err := io.WriteString(c.w, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"r_die"}}`+"\n"); err != nil {
			t.Fatal(err)
		}
		select {
		case <-died:
		case <-time.After(5 * time.Second):
			t.Fatal("r_die did not call die")
		}
	})
}

// The handshake and tools/list are answered no sooner than their delays, and a delayed
// answer ends with its session.
func TestDelays(t *testing.T) {
	const d = 300 * time.Millisecond
	begin := time.Now()
	cs := inMemory(t, ServerOptions{InitDelay: d, ListDelay: d}, false)
	if took := time.Since(begin); took < d {
		t.Errorf("handshake took %v, want at least %v", took, d)
	}
	begin = time.Now()
	if _, err := cs.ListTools(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(begin); took < d {
		t.Errorf("tools/list took %v, want at least %v", took, d)
	}
	begin = time.Now()
	if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "a", Arguments: map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(begin); took >= d {
		t.Errorf("tools/call took %v: delayed too", took)
	}

	// A caller that gives up on a long delay is not held.
	slow := inMemory(t, ServerOptions{ListDelay: time.Hour}, false)
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	begin = time.Now()
	if _, err := slow.ListTools(ctx, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("list with a deadline: %v", err)
	}
	if took := time.Since(begin); took > 2*time.Second {
		t.Errorf("a cancelled list took %v", took)
	}
	if _, err := NewServerWith(ServerOptions{ListDelay: -1}); err == nil {
		t.Error("a negative delay was taken")
	}
}
