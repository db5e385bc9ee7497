package steps

import (
	"encoding/json"
	"fmt"
	"maps"
	"sync"

	"github.com/muthuishere/toolnexus-conformance/steps/common"

	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
)

// The slots this library answers (SPEC.md §3 "Host functions call back"). The adapter
// installs one stub per function that calls back here, so what a transform, hook or host tool
// does is decided in Go, once, for every port; the kernel records what each slot saw.

// slotBodyTransform applies the scenario's body transform (applyTransform).
func slotBodyTransform(a *kernel.Attempt, args map[string]any) adapter.Answer {
	l := kernel.Get[llmState](a)
	if l.transform == nil {
		return notInstalled("bodyTransform")
	}
	body, _ := args["body"].(map[string]any)
	if null, _ := l.transform["returnNull"].(bool); null {
		return adapter.Answer{Value: nil}
	}
	inPlace, _ := l.transform["inPlace"].(bool)
	return adapter.Answer{Value: applyTransform(l.transform, body), InPlace: inPlace}
}

// slotBeforeLLM answers the BeforeLLM hook with the scenario's override.
func slotBeforeLLM(a *kernel.Attempt, args map[string]any) adapter.Answer {
	l := kernel.Get[llmState](a)
	if l.hook == nil {
		return notInstalled("beforeLLM")
	}
	msgs, _ := args["messages"].([]any)
	return adapter.Answer{Value: hookOverride(l.hook, msgs)}
}

// slotHTTP lets the recording HTTP client's request go on; the kernel's record counts it.
func slotHTTP(*kernel.Attempt, map[string]any) adapter.Answer { return adapter.Answer{} }

// slotTool is a host or native tool's execute.
func slotTool(a *kernel.Attempt, args map[string]any) adapter.Answer {
	c := kernel.Get[contractState](a)
	name, _ := args["name"].(string)
	if n, ok := c.natives[name]; ok {
		n.mu.Lock()
		n.saw = append(n.saw, args["input"])
		n.mu.Unlock()
		if n.throws != "" {
			return adapter.Answer{Error: n.throws}
		}
		return adapter.Answer{Value: n.returns}
	}
	if out, ok := c.tools[name]; ok {
		return adapter.Answer{Value: out}
	}
	return adapter.Answer{Error: fmt.Sprintf("runner: no host tool %q in this scenario", name)}
}

func notInstalled(fn string) adapter.Answer {
	return adapter.Answer{Error: fmt.Sprintf("runner: the scenario installed no %s host function", fn)}
}

// hookOverride is the BeforeLLM override: the messages with the last user message's content
// replaced (setLastUserContent), and the tools given (present, e.g. [], means override).
func hookOverride(spec map[string]any, msgs []any) any {
	out := map[string]any{}
	if content, ok := spec["setLastUserContent"].(string); ok {
		edited := common.DeepCopy(msgs).([]any)
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
func (l *llmState) install(client map[string]any) map[string]any {
	args := maps.Clone(client)
	if t, ok := client["bodyTransform"].(map[string]any); ok {
		l.transform, args["bodyTransform"] = t, true
	}
	if k, ok := client["beforeLLM"].(map[string]any); ok {
		l.hook, args["beforeLLM"] = k, true
	}
	return args
}

// ranRequests are the client.run / client.ask requests that returned a result, in order,
// with what their host functions saw.
func (w *World) ranRequests() []kernel.Request {
	var out []kernel.Request
	for _, r := range w.a.Requests() {
		if r.OK && (r.Op == "client.run" || r.Op == "client.ask") {
			out = append(out, r)
		}
	}
	return out
}

// nativeFn is what a native tool's function does (SPEC.md §7): return a value (kept as raw
// JSON, so an object's key order reaches the port as written) or raise a message; it records
// every input it was called with.
type nativeFn struct {
	returns json.RawMessage
	throws  string
	mu      sync.Mutex
	saw     []any
}

// nativeSaw is what the native tool's function was called with, in call order.
func (c *contractState) nativeSaw(name string) []any {
	if n := c.natives[name]; n != nil {
		n.mu.Lock()
		defer n.mu.Unlock()
		return append([]any(nil), n.saw...)
	}
	return nil
}

// addTool installs a host tool's execute.
func (c *contractState) addTool(name, output string) { c.tools[name] = output }

// addNative installs a native tool's function.
func (c *contractState) addNative(name string, fn *nativeFn) { c.natives[name] = fn }
