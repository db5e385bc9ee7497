// Command adapter relays the Go port to the conformance runner (SPEC.md §3): requests and
// responses as JSON lines, host functions called back (host.go); the runner judges.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

type request struct {
	ID   int64           `json:"id"`
	Op   string          `json:"op"`
	Args json.RawMessage `json:"args"`
}

// lockedWriter keeps a response and a callback from a library goroutine from interleaving.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

func (l *lockedWriter) writeLine(b []byte) error {
	_, err := l.Write(append(b, '\n'))
	return err
}

func main() {
	out := &lockedWriter{w: os.Stdout}
	a := newAdapter(newHost(out))
	err := serve(a, os.Stdin, out)
	a.closeAll(2 * time.Second)
	if err != nil {
		fmt.Fprintf(os.Stderr, "adapter: %v\n", err)
		os.Exit(1)
	}
}

// serve answers lines until stdin ends or shutdown was answered. The runner validates every
// request against the schema, so a line is decoded as it is.
func serve(a *adapter, in io.Reader, out *lockedWriter) error {
	r := bufio.NewReaderSize(in, 1<<20)
	for {
		line, err := r.ReadBytes('\n')
		var req request
		if len(line) > 1 && json.Unmarshal(line, &req) == nil && req.ID > 0 {
			if werr := out.writeLine(a.handle(req)); werr != nil {
				return werr
			}
			if req.Op == "shutdown" {
				return nil
			}
		} else if len(line) > 1 {
			fmt.Fprintf(os.Stderr, "adapter: skipping a line that is not a request: %.200s\n", line)
		}
		if err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

type opFunc func(a *adapter, x args, op string) (any, error)

// ops is filled in init because opHello reads it.
var ops map[string]opFunc

func init() {
	ops = map[string]opFunc{"hello": opHello, "client.create": opClientCreate, "client.run": opClientRun, "client.translate": opClientTranslate,
		"client.ask": opClientRun, "store.get": opStore, "store.save": opStore, "store.identity": opStore,
		"toolkit.create": opToolkitCreate, "toolkit.close": opToolkitClose, "mcp.load": opMcpLoad,
		"mcp.list": opMcpList, "toolkit.describe": opToolkitDescribe, "tool.execute": opToolExecute,
		"adapters": opAdapters, "sanitize": opSanitize, "toolkit.skillsPrompt": opSkillsPrompt, "skills.list": opSkillsList,
		"conversation.create": opConversation, "conversation.send": opConversation, "conversation.reset": opConversation,
		"conversation.messages": opConversation,
		"shutdown":              func(*adapter, args, string) (any, error) { return nil, nil }}
}

// handle runs one op with the library's warnings captured and returns the response line; a
// panic is the adapter's fault and answered, so one op cannot end the process.
func (a *adapter) handle(req request) []byte {
	var result any
	var err error
	warnings := captureWarnings(func() {
		defer func() {
			if p := recover(); p != nil {
				err = adapterErr("failed", fmt.Sprintf("adapter: panic in %s: %v", req.Op, p))
			}
		}()
		var x args
		_ = json.Unmarshal(req.Args, &x) // the runner checked them against the schema
		if op, ok := ops[req.Op]; ok {
			result, err = op(a, x, req.Op)
		} else {
			err = adapterErr("unsupported", "adapter: unknown op "+req.Op)
		}
	})
	resp := map[string]any{"id": req.ID, "ok": err == nil, "warnings": warnings}
	if err != nil {
		resp["error"] = relay(err)
	} else if resp["result"] = result; result == nil {
		resp["result"] = map[string]any{}
	}
	b, merr := json.Marshal(resp)
	if merr != nil {
		b, _ = json.Marshal(map[string]any{"id": req.ID, "ok": false, "warnings": warnings,
			"error": errorBody{Kind: "failed", Message: "adapter: cannot encode result: " + merr.Error()}})
	}
	return b
}
