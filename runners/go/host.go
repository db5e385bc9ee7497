package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"sync"

	toolnexus "github.com/muthuishere/toolnexus/golang"
)

// host is the callback channel (SPEC.md §3): a stub writes a callback on stdout and blocks on
// the answer from fd 3, under one lock, as the library may call from its own goroutines.
type host struct {
	mu      sync.Mutex
	out     *lockedWriter
	answers *bufio.Reader
	next    int
}

func newHost(out *lockedWriter) *host {
	return &host{out: out, answers: bufio.NewReaderSize(os.NewFile(3, "callback"), 1<<20)}
}

// slots are the host functions (SPEC.md §3 slots, "<area>.<name>") this adapter installs
// stubs for, as hello lists them.
var slots = []string{
	slotBodyTransform,
	slotBeforeLLM,
	slotHTTP,
	slotTool,
}

const (
	slotBodyTransform = "llm.bodyTransform"
	slotBeforeLLM     = "llm.beforeLLM"
	slotHTTP          = "transport.http"
	slotTool          = "contract.tool"
)

// call runs one host function in the runner and decodes the answer's value into v; it
// reports whether the runner asked for an in-place edit. The answer returns a value, edits
// the argument in place, or raises; this port has no suspension, so a suspend is a fault.
func (h *host) call(fn string, args map[string]any, v any) (bool, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.next++
	line, err := json.Marshal(map[string]any{"callback": h.next, "fn": fn, "args": args})
	if err == nil {
		err = h.out.writeLine(line)
	}
	if err == nil {
		line, err = h.answers.ReadBytes('\n')
	}
	if err != nil {
		return false, fmt.Errorf("adapter: %s callback: %w", fn, err)
	}
	var a struct {
		Callback     int
		Return, Edit json.RawMessage
		Raise        *string
		Suspend      json.RawMessage
	}
	if err := json.Unmarshal(line, &a); err != nil || a.Callback != h.next {
		return false, fmt.Errorf("adapter: bad answer to %s callback: %q", fn, line)
	}
	switch {
	case a.Raise != nil:
		return false, errors.New(*a.Raise)
	case a.Suspend != nil:
		return false, fmt.Errorf("adapter: the runner suspended %s, which this adapter cannot", fn)
	}
	value, inPlace := a.Return, false
	if a.Edit != nil {
		value, inPlace = a.Edit, true
	}
	if v != nil && len(value) > 0 {
		return inPlace, json.Unmarshal(value, v)
	}
	return inPlace, nil
}

// bodyTransform calls back with the body; in place, it edits the very map it got.
func (h *host) bodyTransform(client string) func(map[string]any) map[string]any {
	return func(body map[string]any) map[string]any {
		var m map[string]any
		inPlace, err := h.call(slotBodyTransform, map[string]any{"client": client, "body": body}, &m)
		if err != nil {
			panic(err) // the port's transform signature has no error
		}
		if inPlace && m != nil {
			return patch(body, m).(map[string]any)
		}
		return m
	}
}

// patch edits old to equal v, keeping old's maps and slices where both have one: a host's
// in-place rewrite (ADR A4.4). A scalar that encodes the same keeps old's Go type.
func patch(old, v any) any {
	switch nv := v.(type) {
	case map[string]any:
		if om, ok := old.(map[string]any); ok {
			for k := range om {
				if _, keep := nv[k]; !keep {
					delete(om, k)
				}
			}
			for k, x := range nv {
				om[k] = patch(om[k], x)
			}
			return om
		}
	case []any:
		if ol, ok := old.([]any); ok && len(ol) == len(nv) {
			for i := range ol {
				ol[i] = patch(ol[i], nv[i])
			}
			return ol
		}
	}
	if a, err := json.Marshal(old); err == nil {
		if b, _ := json.Marshal(v); string(a) == string(b) {
			return old
		}
	}
	return v
}

// beforeLLM calls back with the turn; the answer is the override, null for none.
func (h *host) beforeLLM(client string) func(context.Context, toolnexus.BeforeLLMEvent) (*toolnexus.LLMOverride, error) {
	return func(_ context.Context, ev toolnexus.BeforeLLMEvent) (*toolnexus.LLMOverride, error) {
		var ov *struct {
			Messages []any
			Tools    *[]any
		}
		args := map[string]any{"client": client, "turn": ev.Turn, "messages": ev.Messages, "tools": ev.Tools}
		if _, err := h.call(slotBeforeLLM, args, &ov); err != nil || ov == nil {
			return nil, err
		}
		out := &toolnexus.LLMOverride{Messages: ov.Messages}
		if ov.Tools != nil {
			out.Tools = append([]any{}, *ov.Tools...) // present, even empty: replace the tools
		}
		return out, nil
	}
}

// tool is a host tool whose execute calls back.
func (h *host) tool(toolkit, name, description string, schema map[string]any) toolnexus.Tool {
	return toolnexus.Tool{Name: name, Description: description, InputSchema: schema, Source: toolnexus.SourceCustom,
		Execute: func(input map[string]any, _ *toolnexus.ToolContext) (toolnexus.ToolResult, error) {
			var out string
			_, err := h.call(slotTool, map[string]any{"toolkit": toolkit, "name": name, "input": input}, &out)
			return toolnexus.ToolResult{Output: out}, err
		}}
}

// transport calls back before each request, then sends it the default way.
type transport struct {
	h      *host
	client string
}

func (t transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if _, err := t.h.call(slotHTTP, map[string]any{"client": t.client, "method": req.Method, "url": req.URL.String()}, nil); err != nil {
		return nil, err
	}
	return http.DefaultTransport.RoundTrip(req)
}

// native builds a native tool whose function calls back: the answer is what it returns, an
// answer with ok false is the error it returns. NativeTool returns strings only, so a whole
// ToolResult is a Tool literal with the native source, and an object cannot be expressed.
func (h *host) native(toolkit string, et extraTool) (toolnexus.Tool, error) {
	call := func(input map[string]any, v any) error {
		_, err := h.call(slotTool, map[string]any{"toolkit": toolkit, "name": et.Name, "input": input}, v)
		return err
	}
	switch et.Returns {
	case "", "string":
		return toolnexus.NativeTool(et.Name, et.Description, et.InputSchema,
			func(_ context.Context, input map[string]any) (string, error) {
				var out string
				err := call(input, &out)
				return out, err
			}), nil
	case "result":
		return toolnexus.Tool{Name: et.Name, Description: et.Description, InputSchema: et.InputSchema,
			Source: toolnexus.SourceNative,
			Execute: func(input map[string]any, _ *toolnexus.ToolContext) (toolnexus.ToolResult, error) {
				var out toolnexus.ToolResult
				err := call(input, &out)
				return out, err
			}}, nil
	}
	return toolnexus.Tool{}, adapterErr("unsupported", "adapter: the Go port's NativeTool returns a string; a function returning "+et.Returns+" cannot be declared")
}
