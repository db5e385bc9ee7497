package toolnexus

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// rawMcpFake is a hand-written MCP server that answers with exact bytes, which the go-sdk's
// typed server cannot: key order, number spelling, escapes. It speaks over streamable HTTP
// (JSON or SSE answers), the legacy SSE transport and stdio.
type rawMcpFake struct {
	tools     []rawFakeTool
	pageSize  int           // 0: one page
	listDelay time.Duration // before each tools/list answer

	mu    sync.Mutex
	calls []rawFakeCall
}

type rawFakeTool struct {
	name string
	def  string // the tool's JSON as listed
	// result is the raw "result" of tools/call; rpcErr, if set, is sent instead as a
	// JSON-RPC error message. die makes the server go away mid-call.
	result string
	rpcErr string
	die    bool
	// echo answers with the raw arguments bytes as the text part.
	echo bool
}

type rawFakeCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// textResult is a tools/call result with text parts.
func textResult(parts ...string) string {
	var items []string
	for _, p := range parts {
		b, _ := json.Marshal(p)
		items = append(items, `{"type":"text","text":`+string(b)+`}`)
	}
	return `{"content":[` + strings.Join(items, ",") + `]}`
}

// rawTool lists a tool with a plain object schema.
func rawTool(name, result string) rawFakeTool {
	n, _ := json.Marshal(name)
	return rawFakeTool{name: name, def: `{"name":` + string(n) + `,"description":"raw ` + strings.ReplaceAll(name, `"`, "") + `","inputSchema":{"type":"object"}}`, result: result}
}

const rawStructBytes = `{"z":1,"a":"é<&>","e":"🚀","n":[true,null],"o":{"y":2,"x":1}}`

var rawOutSchema = `{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}`

// newResultsFake is srv-results from the shared contract catalogue, plus a few more.
func newResultsFake() *rawMcpFake {
	withOut := func(name, result string) rawFakeTool {
		t := rawTool(name, result)
		t.def = strings.TrimSuffix(t.def, "}") + `,"outputSchema":` + rawOutSchema + `}`
		return t
	}
	echo := rawTool("echo", "")
	echo.echo = true
	rpc := rawTool("r_rpcerr", "")
	rpc.rpcErr = `{"code":-32000,"message":"bank is closed"}`
	die := rawTool("die", "")
	die.die = true
	return &rawMcpFake{tools: []rawFakeTool{
		rawTool("r_text2", textResult("one", "two")),
		rawTool("r_err2", `{"content":[{"type":"text","text":"bad"},{"type":"text","text":"worse"}],"isError":true}`),
		rawTool("r_err_blank", `{"content":[{"type":"text","text":""},{"type":"text","text":"  "}],"isError":true}`),
		rawTool("r_err_none", `{"content":[],"isError":true}`),
		rawTool("r_struct", `{"content":[{"type":"text","text":"ignored"}],"structuredContent":`+rawStructBytes+`}`),
		rawTool("r_struct_err", `{"content":[{"type":"text","text":"struct failed"}],"structuredContent":{"a":1},"isError":true}`),
		rawTool("r_num", `{"content":[],"structuredContent":{"f":1.0,"g":1e2,"h":-0.5,"i":1.5e-7}}`),
		rawTool("r_spaced", "{ \"content\" : [ ] ,\t \"structuredContent\" : { \"k\" : \"a\\u00e9\\/\\u003c\" , \"big\" : 9007199254740993, \"neg0\": -0, \"tiny\": 1E-7, \"huge\": 1e21, \"d\": {\"x\":1,\"x\":2} } }"),
		rawTool("r_empty", `{"content":[{"type":"text","text":"not this"}],"structuredContent":{}}`),
		rawTool("r_null", `{"content":[{"type":"text","text":"t"}],"structuredContent":null}`),
		rawTool("r_image", `{"content":[{"type":"image","data":"aGk=","mimeType":"image/png"}]}`),
		rawTool("r_mixed", `{"content":[{"type":"text","text":"A"},{"type":"image","data":"aGk=","mimeType":"image/png"},{"type":"resource","resource":{"uri":"file:///x","text":"res"}},{"type":"text","text":"B"}]}`),
		withOut("r_badout", `{"content":[],"structuredContent":{"n":"not a number"}}`),
		withOut("r_goodout", `{"content":[],"structuredContent":{"n":1.0}}`),
		withOut("r_noout", textResult("only text")),
		withOut("r_errout", `{"content":[{"type":"text","text":"failed anyway"}],"isError":true}`),
		rpc, echo, die,
	}}
}

func (f *rawMcpFake) seenCalls() []rawFakeCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]rawFakeCall(nil), f.calls...)
}

// answer handles one JSON-RPC message: nil for a notification. die reports a tool that
// must take the server away instead of answering.
func (f *rawMcpFake) answer(msg []byte) (out []byte, die bool) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(msg, &m) != nil || len(m.ID) == 0 {
		return nil, false
	}
	reply := func(result string) []byte {
		return []byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":` + result + `}`)
	}
	fail := func(errObj string) []byte {
		return []byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":` + errObj + `}`)
	}
	switch m.Method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		_ = json.Unmarshal(m.Params, &p)
		v, _ := json.Marshal(p.ProtocolVersion)
		return reply(`{"protocolVersion":` + string(v) + `,"capabilities":{"tools":{}},"serverInfo":{"name":"raw","version":"1"}}`), false
	case "ping":
		return reply(`{}`), false
	case "tools/list":
		time.Sleep(f.listDelay)
		var p struct {
			Cursor string `json:"cursor"`
		}
		_ = json.Unmarshal(m.Params, &p)
		start := 0
		fmt.Sscan(p.Cursor, &start)
		end := len(f.tools)
		if f.pageSize > 0 && start+f.pageSize < end {
			end = start + f.pageSize
		}
		var defs []string
		for _, t := range f.tools[start:end] {
			defs = append(defs, t.def)
		}
		next := ""
		if end < len(f.tools) {
			next = fmt.Sprintf(`,"nextCursor":"%d"`, end)
		}
		return reply(`{"tools":[` + strings.Join(defs, ",") + `]` + next + `}`), false
	case "tools/call":
		var call rawFakeCall
		_ = json.Unmarshal(m.Params, &call)
		f.mu.Lock()
		f.calls = append(f.calls, call)
		f.mu.Unlock()
		for _, t := range f.tools {
			if t.name != call.Name {
				continue
			}
			switch {
			case t.die:
				return nil, true
			case t.rpcErr != "":
				return fail(t.rpcErr), false
			case t.echo:
				return reply(textResult(string(call.Arguments))), false
			}
			return reply(t.result), false
		}
		return fail(`{"code":-32602,"message":"no such tool"}`), false
	}
	return fail(`{"code":-32601,"message":"method not found"}`), false
}

// streamable serves the fake over streamable HTTP; sse answers each POST as an event
// stream, split over several flushes so the capture must join the pieces.
func (f *rawMcpFake) streamable(sse bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodPost:
		case http.MethodDelete:
			w.WriteHeader(http.StatusOK)
			return
		default:
			http.Error(w, "no standalone stream", http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		out, die := f.answer(body)
		if die {
			hijackAndClose(w)
			return
		}
		if out == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		if !sse {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(out)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fl := w.(http.Flusher)
		event := ": comment\r\n\r\nevent: message\r\n" + sseData(out) + "\r\n"
		third := len(event) / 3
		for _, piece := range []string{event[:third], event[third : 2*third], event[2*third:]} {
			_, _ = io.WriteString(w, piece)
			fl.Flush()
			time.Sleep(2 * time.Millisecond)
		}
	})
}

// legacySSE serves the fake over the old HTTP+SSE transport: the base URL refuses POST (so
// a streamable attempt fails), its GET is the event stream, answers go down the stream.
func (f *rawMcpFake) legacySSE(quit <-chan struct{}) http.Handler {
	out := make(chan []byte, 16)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/":
			w.Header().Set("Content-Type", "text/event-stream")
			fl := w.(http.Flusher)
			_, _ = io.WriteString(w, "event: endpoint\ndata: /message?sid=1\n\n")
			fl.Flush()
			for {
				select {
				case msg := <-out:
					_, _ = io.WriteString(w, "event: message\n"+sseData(msg)+"\n")
					fl.Flush()
				case <-r.Context().Done():
					return
				case <-quit:
					return
				}
			}
		case r.Method == http.MethodPost && r.URL.Path == "/message":
			body, _ := io.ReadAll(r.Body)
			msg, die := f.answer(body)
			if die {
				hijackAndClose(w)
				return
			}
			if msg != nil {
				out <- msg
			}
			w.WriteHeader(http.StatusAccepted)
		default:
			http.Error(w, "not here", http.StatusMethodNotAllowed)
		}
	})
}

// sseData frames a message as data lines, one per line of the message.
func sseData(msg []byte) string {
	return "data: " + strings.ReplaceAll(string(msg), "\n", "\ndata: ") + "\n"
}

func hijackAndClose(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			conn.Close()
		}
	}
}

func startRawStreamable(t *testing.T, f *rawMcpFake, sse bool) *fakeMcpHTTP {
	return startFakeMcpHTTP(t, func(*fakeMcpHTTP) http.Handler { return f.streamable(sse) })
}

func startRawLegacySSE(t *testing.T, f *rawMcpFake) *fakeMcpHTTP {
	return startFakeMcpHTTP(t, func(h *fakeMcpHTTP) http.Handler { return f.legacySSE(h.quit) })
}

// serveRawStdio runs the fake on stdin/stdout, one message per line. The "env" tool
// reports what the child sees: TNX_FOO, TNX_PARENT and its working directory.
func serveRawStdio() int {
	f := newResultsFake()
	f.tools = append(f.tools, rawTool("env", ""))
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for in.Scan() {
		line := in.Bytes()
		var probe struct {
			Method string `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(line, &probe)
		if probe.Method == "tools/call" && probe.Params.Name == "env" {
			wd, _ := os.Getwd()
			foo, fooSet := os.LookupEnv("TNX_FOO")
			report, _ := json.Marshal(map[string]any{"TNX_FOO": foo, "fooSet": fooSet, "TNX_PARENT": os.Getenv("TNX_PARENT"), "cwd": wd, "N": os.Getenv("TNX_NUM")})
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", probe.ID, textResult(string(report)))
			continue
		}
		out, die := f.answer(line)
		if die {
			return 7
		}
		if out != nil {
			fmt.Printf("%s\n", out)
		}
	}
	return 0
}

// rawStdioEntry is a server entry running this test binary as the raw stdio fake.
func rawStdioEntry(t *testing.T, extra map[string]any) map[string]any {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	entry := map[string]any{"command": []any{exe}, "env": map[string]any{stdioModeEnv: "raw", "GORACE": "atexit_sleep_ms=0"}}
	for k, v := range extra {
		entry[k] = v
	}
	return entry
}

// executeByName runs one tool of a source by its exposed name.
func executeByName(t *testing.T, tools []Tool, name string, args map[string]any) ToolResult {
	t.Helper()
	for _, tool := range tools {
		if tool.Name == name {
			res, err := tool.Execute(args, &ToolContext{Ctx: context.Background(), Timeout: 10000})
			if err != nil {
				t.Fatalf("%s: Go error %v (a tool failure must be a result)", name, err)
			}
			return res
		}
	}
	t.Fatalf("no tool %q in %v", name, mcpToolNames(tools))
	return ToolResult{}
}
