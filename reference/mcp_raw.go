package toolnexus

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The go-sdk decodes a tools/call result into Go values, which loses the key order and the
// number spelling structuredContent was sent with. The reference keeps the raw result bytes
// of each tools/call instead, seen where they cross the wire: in the HTTP bodies for http
// and sse servers, in the connection's messages for stdio (whose connection can be wrapped
// without hiding anything the SDK looks for; the HTTP ones cannot).

// mcpRawKey carries a call's *mcpRawSlot in the ctx handed to CallTool.
type mcpRawKey struct{}

// mcpRawSlot receives the raw "result" of one tools/call.
type mcpRawSlot struct {
	mu  sync.Mutex
	raw json.RawMessage
}

func (s *mcpRawSlot) set(raw json.RawMessage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.raw = append(json.RawMessage(nil), raw...)
}

func (s *mcpRawSlot) get() json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.raw
}

// mcpRawSink is one session's set of tools/call requests awaiting their answer, by the
// request id's JSON text.
type mcpRawSink struct {
	mu      sync.Mutex
	pending map[string]*mcpRawSlot
}

func newMcpRawSink() *mcpRawSink { return &mcpRawSink{pending: map[string]*mcpRawSlot{}} }

func (k *mcpRawSink) expect(id string, slot *mcpRawSlot) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.pending[id] = slot
}

func (k *mcpRawSink) waiting() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.pending) > 0
}

// deliver hands a response's raw result to the call that sent its id, if one waits.
func (k *mcpRawSink) deliver(id string, result json.RawMessage) {
	k.mu.Lock()
	slot := k.pending[id]
	delete(k.pending, id)
	k.mu.Unlock()
	if slot != nil {
		slot.set(result)
	}
}

// drop forgets a finished call's entries, answered or not.
func (k *mcpRawSink) drop(slot *mcpRawSlot) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for id, s := range k.pending {
		if s == slot {
			delete(k.pending, id)
		}
	}
}

// mcpWireMessage is the part of a JSON-RPC message the capture reads.
type mcpWireMessage struct {
	ID     json.RawMessage `json:"id"`
	Method json.RawMessage `json:"method"`
	Result json.RawMessage `json:"result"`
}

// mcpWireID is an id's JSON text, compacted so the request and its answer agree.
func mcpWireID(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// wireMessages reads one message or a batch of them.
func wireMessages(data []byte) []mcpWireMessage {
	t := bytes.TrimSpace(data)
	if len(t) > 0 && t[0] == '[' {
		var batch []mcpWireMessage
		_ = json.Unmarshal(t, &batch)
		return batch
	}
	var one mcpWireMessage
	if json.Unmarshal(t, &one) != nil {
		return nil
	}
	return []mcpWireMessage{one}
}

// callID is the id of a tools/call request body, or "".
func (k *mcpRawSink) callID(body []byte) string {
	for _, m := range wireMessages(body) {
		var method string
		if len(m.ID) > 0 && json.Unmarshal(m.Method, &method) == nil && method == "tools/call" {
			return mcpWireID(m.ID)
		}
	}
	return ""
}

// take delivers every response in a message body to the calls waiting for it.
func (k *mcpRawSink) take(data []byte) {
	if !k.waiting() {
		return
	}
	for _, m := range wireMessages(data) {
		if len(m.ID) > 0 && len(m.Method) == 0 && len(m.Result) > 0 {
			k.deliver(mcpWireID(m.ID), m.Result)
		}
	}
}

// watchRequest registers a tools/call POST made under a call's ctx; it returns whether
// this request is one, and the body to send in place of the one it read.
func (k *mcpRawSink) watchRequest(req *http.Request) (bool, io.ReadCloser, func() (io.ReadCloser, error), error) {
	slot, _ := req.Context().Value(mcpRawKey{}).(*mcpRawSlot)
	if slot == nil || req.Method != http.MethodPost || req.Body == nil || req.Body == http.NoBody {
		return false, req.Body, req.GetBody, nil
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return false, nil, nil, err
	}
	again := func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	id := k.callID(body)
	if id != "" {
		k.expect(id, slot)
	}
	rc, _ := again()
	return id != "", rc, again, nil
}

// watchResponse reads answers out of a response body as the SDK reads it: every SSE stream
// (an answer may come on any of them), and the JSON body of a tools/call POST.
func (k *mcpRawSink) watchResponse(resp *http.Response, call bool) {
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch {
	case mt == "text/event-stream":
		resp.Body = &mcpSSETee{ReadCloser: resp.Body, sink: k}
	case call && mt == "application/json":
		resp.Body = &mcpJSONTee{ReadCloser: resp.Body, sink: k}
	}
}

// mcpJSONTee keeps a JSON body and hands it to the sink before reporting its end.
type mcpJSONTee struct {
	io.ReadCloser
	sink *mcpRawSink
	buf  []byte
	done bool
}

func (t *mcpJSONTee) Read(p []byte) (int, error) {
	n, err := t.ReadCloser.Read(p)
	t.buf = append(t.buf, p[:n]...)
	if err == io.EOF && !t.done {
		t.done = true
		t.sink.take(t.buf)
		t.buf = nil
	}
	return n, err
}

// mcpSSETee splits an event stream into events and hands each one's data to the sink
// before the bytes that end it reach the SDK.
type mcpSSETee struct {
	io.ReadCloser
	sink    *mcpRawSink
	line    []byte
	data    []byte
	hasData bool
}

func (t *mcpSSETee) Read(p []byte) (int, error) {
	n, err := t.ReadCloser.Read(p)
	for _, c := range p[:n] {
		if c != '\n' {
			t.line = append(t.line, c)
			continue
		}
		t.endLine()
	}
	if err == io.EOF {
		if len(t.line) > 0 {
			t.endLine()
		}
		t.dispatch()
	}
	return n, err
}

func (t *mcpSSETee) endLine() {
	line := bytes.TrimSuffix(t.line, []byte("\r"))
	t.line = t.line[:0]
	if len(line) == 0 {
		t.dispatch()
		return
	}
	value, ok := bytes.CutPrefix(line, []byte("data:"))
	if !ok {
		return
	}
	value = bytes.TrimPrefix(value, []byte(" "))
	if t.hasData {
		t.data = append(t.data, '\n')
	}
	t.data = append(t.data, value...)
	t.hasData = true
}

func (t *mcpSSETee) dispatch() {
	if t.hasData {
		t.sink.take(t.data)
	}
	t.data = t.data[:0]
	t.hasData = false
}

// mcpRawTransport wraps a stdio transport's connection to see each message.
type mcpRawTransport struct {
	inner mcp.Transport
	sink  *mcpRawSink
}

func (t *mcpRawTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &mcpRawConn{Connection: conn, sink: t.sink}, nil
}

type mcpRawConn struct {
	mcp.Connection
	sink *mcpRawSink
}

func (c *mcpRawConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() && req.Method == "tools/call" {
		if slot, _ := ctx.Value(mcpRawKey{}).(*mcpRawSlot); slot != nil {
			c.sink.expect(rawConnID(req.ID), slot)
		}
	}
	return c.Connection.Write(ctx, msg)
}

func (c *mcpRawConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if resp, ok := msg.(*jsonrpc.Response); ok && err == nil && resp.Error == nil {
		c.sink.deliver(rawConnID(resp.ID), resp.Result)
	}
	return msg, err
}

func rawConnID(id jsonrpc.ID) string {
	data, err := json.Marshal(id.Raw())
	if err != nil {
		return ""
	}
	return string(data)
}
