// Command adapter is the Go port's side of the conformance protocol (SPEC.md §3):
// it reads one JSON request per line on stdin, drives the toolnexus Go library,
// and writes exactly one JSON response line per request on stdout.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// request is one protocol request line; args stay raw so each op decodes strictly.
type request struct {
	ID   int64
	Op   string
	Args json.RawMessage
}

// response is one protocol response line. Result is omitted only when nil,
// so an ok response always carries an object (possibly {}).
type response struct {
	ID       int64      `json:"id"`
	OK       bool       `json:"ok"`
	Result   any        `json:"result,omitempty"`
	Error    *errorBody `json:"error,omitempty"`
	Warnings []string   `json:"warnings"`
}

// errorBody is the protocol's {kind, message, type} error object.
type errorBody struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	// Type names the library's error (e.g. "context.DeadlineExceeded"); empty for the
	// adapter's own errors.
	Type string `json:"type,omitempty"`
}

// main serves stdin until EOF or shutdown, then closes what is still open.
func main() {
	a := newAdapter()
	err := serve(a, os.Stdin, os.Stdout)
	a.closeAll(2 * time.Second)
	if err != nil {
		fmt.Fprintf(os.Stderr, "adapter: %v\n", err)
		os.Exit(1)
	}
}

// serve runs the line loop until stdin ends or a shutdown has been answered.
// Nothing but response lines may reach out: the runner validates every line.
func serve(a *adapter, in io.Reader, out io.Writer) error {
	r := bufio.NewReaderSize(in, 1<<20)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			req, ok := parseRequest(line)
			if ok {
				resp := a.handle(req)
				writeResponse(enc, resp)
				if req.Op == "shutdown" {
					return nil
				}
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// parseRequest extracts id/op/args. A line without a usable id cannot be
// answered validly (ids are >= 1), so it is reported on stderr and skipped.
func parseRequest(line []byte) (request, bool) {
	var env map[string]json.RawMessage
	if err := json.Unmarshal(line, &env); err != nil {
		fmt.Fprintf(os.Stderr, "adapter: skipping malformed line: %v\n", err)
		return request{}, false
	}
	var req request
	if err := json.Unmarshal(env["id"], &req.ID); err != nil || req.ID < 1 {
		fmt.Fprintf(os.Stderr, "adapter: skipping line without a valid id: %s\n", bytes.TrimSpace(line))
		return request{}, false
	}
	if raw, ok := env["op"]; ok {
		if err := json.Unmarshal(raw, &req.Op); err != nil {
			req.Op = "" // answered as an unknown op
		}
	}
	req.Args = env["args"]
	return req, true
}

// writeResponse encodes one line. Encode marshals fully before writing, so a
// result that cannot be marshalled leaves nothing half-written and is replaced
// by a failed response with the same id.
func writeResponse(enc *json.Encoder, resp response) {
	if resp.Warnings == nil {
		resp.Warnings = []string{}
	}
	if err := enc.Encode(resp); err != nil {
		fallback := response{ID: resp.ID, OK: false, Warnings: resp.Warnings,
			Error: &errorBody{Kind: kindFailed, Message: "adapter: cannot encode result: " + err.Error()}}
		if err2 := enc.Encode(fallback); err2 != nil {
			fmt.Fprintf(os.Stderr, "adapter: cannot write response %d: %v\n", resp.ID, err2)
		}
	}
}

// opFunc serves one op from its raw args.
type opFunc func(a *adapter, args json.RawMessage) (any, error)

// ops is the dispatch table; hello reports its keys. It is filled in init
// because opHello reads it (a package-level initializer would be a cycle).
var ops map[string]opFunc

func init() {
	ops = map[string]opFunc{
		"hello":          opHello,
		"client.create":  opClientCreate,
		"client.run":     opClientRun,
		"client.ask":     opClientAsk,
		"store.get":      opStoreGet,
		"store.save":     opStoreSave,
		"store.identity": opStoreIdentity,
		"toolkit.create": opToolkitCreate,
		"toolkit.close":  opToolkitClose,
		"mcp.load":       opMcpLoad,
		"mcp.list":       opMcpList,
		"shutdown":       opShutdown,
	}
}

// handle runs one request with the library's warnings captured, turning a
// panic into a failed response so one bad op does not kill the whole run.
func (a *adapter) handle(req request) (resp response) {
	resp.ID = req.ID
	var result any
	var err error
	resp.Warnings = captureWarnings(func() {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("adapter: panic in %s: %v", req.Op, p)
			}
		}()
		op, ok := ops[req.Op]
		if !ok {
			err = unsupportedf("adapter: unknown op %q", req.Op)
			return
		}
		result, err = op(a, req.Args)
	})
	if err != nil {
		resp.Error = &errorBody{Kind: errorKind(err), Message: err.Error(), Type: errorType(err)}
		return resp
	}
	if result == nil {
		result = map[string]any{}
	}
	resp.OK = true
	resp.Result = result
	return resp
}

// opShutdown answers {}; serve exits after writing it.
func opShutdown(a *adapter, args json.RawMessage) (any, error) {
	_ = decodeArgs(args, &struct{}{}) // shutdown must succeed whatever it carries
	return map[string]any{}, nil
}
