package contract

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
)

// State is the shared contract's tool surface: extra tools for the next build, host
// and native tool functions, and the last result of each contract op.
type State struct {
	extraTools                               []any
	builtins                                 bool // the next build turns the built-in tools on
	described, executed, rendered, sanitized map[string]any
	tools                                    map[string]string        // host tool name -> its execute's output
	delays                                   map[string]time.Duration // host tool name -> how long it takes to answer
	natives                                  map[string]*nativeFn
}

func (s *State) Init(*kernel.Attempt) {
	s.tools, s.natives, s.delays = map[string]string{}, map[string]*nativeFn{}, map[string]time.Duration{}
}

// slotTool is a host or native tool's execute.
func slotTool(a *kernel.Attempt, args map[string]any) adapter.Answer {
	c := kernel.Get[State](a)
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
		time.Sleep(c.delays[name]) // a slow tool (C9.6): the runner answers late, on purpose
		return adapter.Answer{Value: out}
	}
	return adapter.Answer{Error: fmt.Sprintf("runner: no host tool %q in this scenario", name)}
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
func (c *State) nativeSaw(name string) []any {
	if n := c.natives[name]; n != nil {
		n.mu.Lock()
		defer n.mu.Unlock()
		return append([]any(nil), n.saw...)
	}
	return nil
}

// addTool installs a host tool's execute.
func (c *State) addTool(name, output string) { c.tools[name] = output }

// addNative installs a native tool's function.
func (c *State) addNative(name string, fn *nativeFn) { c.natives[name] = fn }
