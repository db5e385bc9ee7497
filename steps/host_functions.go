package steps

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"sync"

	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
)

// hostFns is what this scenario's host functions do and what they saw (SPEC.md §3 "Host
// functions call back"). The adapter installs one stub per function that calls back here, so
// what a transform or hook does is decided in Go, once, for every port.
type hostFns struct {
	mu        sync.Mutex
	transform map[string]any    // the body transform's edits (applyTransform); nil: none installed
	hook      map[string]any    // the BeforeLLM hook's override; nil: none installed
	tools     map[string]string // host tool name -> the output its execute returns
	natives   map[string]*nativeFn
	cur       hostRun   // the request in flight
	runs      []hostRun // each client.run / client.ask that returned, in order
}

// hostRun is what the host functions saw during one run: the bodies the transform received
// and the requests the recording HTTP client carried. The runner keeps it; the adapter's run
// report holds only what the library returned.
type hostRun struct {
	transformSaw []any
	httpRequests int
}

// answer serves one callback of the adapter.
func (h *hostFns) answer(fn string, raw json.RawMessage) adapter.Answer {
	h.mu.Lock()
	defer h.mu.Unlock()
	var args map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // a body's numbers go back to the port as it sent them
	if err := dec.Decode(&args); err != nil {
		return adapter.Answer{Error: "runner: callback args are not an object: " + err.Error()}
	}
	switch fn {
	case "bodyTransform":
		if h.transform == nil {
			break
		}
		body, _ := args["body"].(map[string]any)
		h.cur.transformSaw = append(h.cur.transformSaw, deepCopy(body))
		if null, _ := h.transform["returnNull"].(bool); null {
			return adapter.Answer{Value: nil}
		}
		inPlace, _ := h.transform["inPlace"].(bool)
		return adapter.Answer{Value: applyTransform(h.transform, body), InPlace: inPlace}
	case "beforeLLM":
		if h.hook == nil {
			break
		}
		msgs, _ := args["messages"].([]any)
		return adapter.Answer{Value: hookOverride(h.hook, msgs)}
	case "http":
		h.cur.httpRequests++
		return adapter.Answer{}
	case "tool":
		name, _ := args["name"].(string)
		if n, ok := h.natives[name]; ok {
			n.saw = append(n.saw, args["input"])
			if n.throws != "" {
				return adapter.Answer{Error: n.throws}
			}
			return adapter.Answer{Value: n.returns}
		}
		if out, ok := h.tools[name]; ok {
			return adapter.Answer{Value: out}
		}
		return adapter.Answer{Error: fmt.Sprintf("runner: no host tool %q in this scenario", name)}
	}
	return adapter.Answer{Error: fmt.Sprintf("runner: the scenario installed no %s host function", fn)}
}

// hookOverride is the BeforeLLM override: the messages with the last user message's content
// replaced (setLastUserContent), and the tools given (present, e.g. [], means override).
func hookOverride(spec map[string]any, msgs []any) any {
	out := map[string]any{}
	if content, ok := spec["setLastUserContent"].(string); ok {
		edited := deepCopy(msgs).([]any)
		for i := len(edited) - 1; i >= 0; i-- {
			if m, _ := edited[i].(map[string]any); m["role"] == "user" {
				m["content"] = content
				break
			}
		}
		out["messages"] = edited
	}
	if tools, ok := spec["tools"]; ok {
		out["tools"] = tools
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// install takes the host functions out of the client's description: the adapter is told only
// that they exist (client.create's bodyTransform / beforeLLM are true).
func (h *hostFns) install(client map[string]any) map[string]any {
	h.mu.Lock()
	defer h.mu.Unlock()
	args := maps.Clone(client)
	if t, ok := client["bodyTransform"].(map[string]any); ok {
		h.transform, args["bodyTransform"] = t, true
	}
	if k, ok := client["beforeLLM"].(map[string]any); ok {
		h.hook, args["beforeLLM"] = k, true
	}
	return args
}

// nativeFn is what a native tool's function does (SPEC.md §7): return a value (kept as raw
// JSON, so an object's key order reaches the port as written) or raise a message; it records
// every input it was called with.
type nativeFn struct {
	returns json.RawMessage
	throws  string
	saw     []any
}

func (h *hostFns) addNative(name string, fn *nativeFn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.natives == nil {
		h.natives = map[string]*nativeFn{}
	}
	h.natives[name] = fn
}

// nativeSaw is what the native tool's function was called with, in call order.
func (h *hostFns) nativeSaw(name string) []any {
	h.mu.Lock()
	defer h.mu.Unlock()
	if n := h.natives[name]; n != nil {
		return append([]any(nil), n.saw...)
	}
	return nil
}

// addTool installs a host tool's execute.
func (h *hostFns) addTool(name, output string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.tools == nil {
		h.tools = map[string]string{}
	}
	h.tools[name] = output
}

// begin starts a request's record; end keeps it as a run's, for a run that returned.
func (h *hostFns) begin() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.cur = hostRun{}
}

func (h *hostFns) end() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.runs = append(h.runs, h.cur)
}

// ranRecords returns the records of the runs that returned, in order.
func (h *hostFns) ranRecords() []hostRun {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]hostRun(nil), h.runs...)
}
