package mcp

import (
	"fmt"
	"os"
	"time"

	mcpfake "github.com/muthuishere/toolnexus-conformance/fakes/mcp"

	"github.com/muthuishere/toolnexus-conformance/fakes/faults"
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

// Stalls is the MCP fakes' pinned timing: which servers stall, where the client must be
// seen to get to, and the slow servers.
type Stalls struct {
	a      *kernel.Attempt
	stalls map[string]time.Duration // server name -> how long its fake stalls (timing.Forever: never answers)
	// reach is, for each stalled server whose stall the client can be seen to reach, the
	// phase it stalls in: what a quick attempt's premise checks.
	reach map[string]string
	slow  map[string]*faults.Slow
}

func (s *Stalls) Init(a *kernel.Attempt) {
	s.a, s.stalls, s.reach, s.slow = a, map[string]time.Duration{}, map[string]string{}, map[string]*faults.Slow{}
}

// Unreached says what of the scenario's premise did not hold when the call returned: a
// stall the client had not reached, or a server that does not stall and was not listed yet
// (a cancel that comes while "good" is still connecting tests something else).
func (s *Stalls) Unreached() string {
	w := kernel.Get[World](s.a)
	for _, name := range common.SortedNames(s.reach) {
		if err := w.sawPhase(name, s.reach[name]); err != nil {
			return err.Error()
		}
	}
	m := w.mcp()
	for _, name := range common.SortedNames(m.Servers) {
		if _, stalls := s.stalls[name]; stalls || m.Servers[name]["enabled"] == false {
			continue
		}
		if h, ok := m.HTTP[name]; ok && h.Listed() == 0 {
			return fmt.Sprintf("the fake %q had not been listed", name)
		}
		if path, ok := m.PIDFiles[name]; ok {
			if _, err := os.Stat(mcpfake.ListedFile(path)); err != nil {
				return fmt.Sprintf("the stdio server of %q had not been listed", name)
			}
		}
	}
	return ""
}

// witness is what this attempt's fakes saw, for a call cut off at its bound.
func witness(a *kernel.Attempt) []string {
	m, st := Of(a), kernel.Get[Stalls](a)
	var parts []string
	for name, h := range m.Hangs {
		parts = append(parts, fmt.Sprintf("%q accepted %d connections, %d still open", name, h.Accepted(), h.Open()))
	}
	for name, h := range m.HTTP {
		parts = append(parts, fmt.Sprintf("%q accepted %d connections, %d still open", name, h.Connections(), h.Open()))
	}
	for name, f := range m.Fallback {
		parts = append(parts, fmt.Sprintf("%q got %d POSTs and %d SSE GETs", name, f.Posts(), f.SSEGets()))
	}
	for name, s := range st.slow {
		parts = append(parts, fmt.Sprintf("%q got %d requests", name, s.Requests()))
	}
	for name, path := range m.PIDFiles {
		if pid, err := common.ReadPID(path); err == nil {
			parts = append(parts, fmt.Sprintf("stdio %q started (pid %d)", name, pid))
		} else {
			parts = append(parts, fmt.Sprintf("stdio %q never started", name))
		}
	}
	return parts
}
