package steps

import (
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/muthuishere/toolnexus-conformance/steps/common"

	"github.com/muthuishere/toolnexus-conformance/fakes/faults"
	"github.com/muthuishere/toolnexus-conformance/fakes/llm"
	mcpfake "github.com/muthuishere/toolnexus-conformance/fakes/mcp"
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// Each area's state for one attempt (kernel.State): the kernel makes it on first use, so a
// new attempt starts from nothing and no reset list is kept.

// llmState is request shaping and the LLM wire: the fake LLM's route, the client and what
// its runs returned, and the host functions the client installs.
type llmState struct {
	route       *llm.Route
	client      map[string]any // client.create args, sent on first use
	clientReady bool
	results     []map[string]any // results of client.run / client.ask
	transform   map[string]any   // the body transform's edits; nil: none installed
	hook        map[string]any   // the BeforeLLM hook's override; nil: none installed
}

func (s *llmState) Init(a *kernel.Attempt) { s.route = a.Shared("contract").(*llm.Server).NewRoute() }

// Evidence puts every body the fake LLM received in the outcome.
func (s *llmState) Evidence(o *result.Outcome) {
	for _, r := range s.route.Requests() {
		o.Bodies = append(o.Bodies, r.Body)
	}
}

// contractState is the shared contract's tool surface: extra tools for the next build, host
// and native tool functions, and the last result of each contract op.
type contractState struct {
	extraTools                               []any
	builtins                                 bool // the next build turns the built-in tools on
	described, executed, rendered, sanitized map[string]any
	tools                                    map[string]string // host tool name -> its execute's output
	natives                                  map[string]*nativeFn
}

func (s *contractState) Init(*kernel.Attempt) {
	s.tools, s.natives = map[string]string{}, map[string]*nativeFn{}
}

// stallState is the MCP fakes' pinned timing: which servers stall, where the client must be
// seen to get to, and the slow servers.
type stallState struct {
	a      *kernel.Attempt
	stalls map[string]time.Duration // server name -> how long its fake stalls (timing.Forever: never answers)
	// reach is, for each stalled server whose stall the client can be seen to reach, the
	// phase it stalls in: what a quick attempt's premise checks.
	reach map[string]string
	slow  map[string]*faults.Slow
}

func (s *stallState) Init(a *kernel.Attempt) {
	s.a, s.stalls, s.reach, s.slow = a, map[string]time.Duration{}, map[string]string{}, map[string]*faults.Slow{}
}

// Unreached says what of the scenario's premise did not hold when the call returned: a
// stall the client had not reached, or a server that does not stall and was not listed yet
// (a cancel that comes while "good" is still connecting tests something else).
func (s *stallState) Unreached() string {
	w := kernel.Get[World](s.a)
	for _, name := range common.SortedNames(s.reach) {
		if err := w.sawPhase(name, s.reach[name]); err != nil {
			return err.Error()
		}
	}
	m := w.mcp()
	for _, name := range common.SortedNames(m.servers) {
		if _, stalls := s.stalls[name]; stalls || m.servers[name]["enabled"] == false {
			continue
		}
		if h, ok := m.http[name]; ok && h.Listed() == 0 {
			return fmt.Sprintf("the fake %q had not been listed", name)
		}
		if path, ok := m.pidFiles[name]; ok {
			if _, err := os.Stat(mcpfake.ListedFile(path)); err != nil {
				return fmt.Sprintf("the stdio server of %q had not been listed", name)
			}
		}
	}
	return ""
}

// storeState is the conversation store's last store.get result.
type storeState struct{ stored map[string]any }

func (s *storeState) Init(*kernel.Attempt) {}

// parityState is the golden copy a parity step compared against.
type parityState struct{ golden string }

func (s *parityState) Init(*kernel.Attempt) {}

func (s *parityState) Evidence(o *result.Outcome) { o.Golden = s.golden }

// witness is what this attempt's fakes saw, for a call cut off at its bound.
func witness(a *kernel.Attempt) []string {
	w := kernel.Get[World](a)
	m, st := w.mcp(), w.stalls()
	var parts []string
	for name, h := range m.hangs {
		parts = append(parts, fmt.Sprintf("%q accepted %d connections, %d still open", name, h.Accepted(), h.Open()))
	}
	for name, h := range m.http {
		parts = append(parts, fmt.Sprintf("%q accepted %d connections, %d still open", name, h.Connections(), h.Open()))
	}
	for name, f := range m.fallback {
		parts = append(parts, fmt.Sprintf("%q got %d POSTs and %d SSE GETs", name, f.Posts(), f.SSEGets()))
	}
	for name, s := range st.slow {
		parts = append(parts, fmt.Sprintf("%q got %d requests", name, s.Requests()))
	}
	for name, path := range m.pidFiles {
		if pid, err := common.ReadPID(path); err == nil {
			parts = append(parts, fmt.Sprintf("stdio %q started (pid %d)", name, pid))
		} else {
			parts = append(parts, fmt.Sprintf("stdio %q never started", name))
		}
	}
	sort.Strings(parts)
	return append(parts, fmt.Sprintf("the fake LLM got %d requests", len(w.llm().route.Requests())))
}
