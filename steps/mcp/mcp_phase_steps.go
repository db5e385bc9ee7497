package mcp

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/common"

	"github.com/google/go-cmp/cmp/cmpopts"

	mcpfake "github.com/muthuishere/toolnexus-conformance/fakes/mcp"
	"github.com/muthuishere/toolnexus-conformance/internal/timing"
)

// spawnDelay is how long a slow-starting stdio fake sleeps before it reads stdin: longer
// than any bound a scenario asserts, shorter than the runner's call timeout.
const spawnDelay = 8 * time.Second

func registerMCPPhaseSteps(sc *kernel.Steps) {
	sc.Step(`^an MCP server "([^"]*)" over (stdio|streamable HTTP|SSE only) that stalls in (spawn|initialize|tools/list)(?: with a timeout of (\d+) ms)?$`, (*World).stallingServer)
	sc.Step(`^a hung stdio MCP server "([^"]*)"(?: with a timeout of (\d+) ms)?$`, (*World).hungStdioServer)
	sc.Step(`^the fake "([^"]*)" saw the client reach (spawn|initialize|tools/list)$`, (*World).sawPhase)
	sc.Step(`^the MCP config is (loaded|listed|built into a toolkit) with an already cancelled context$`, (*World).mcpActionPreCancelled)
	sc.Step(`^no stdio child is left and no fake has an open connection$`, (*World).nothingLeft)
	sc.Step(`^no stdio child is left and no fake has an open stream$`, (*World).nothingStreaming)
	sc.Step(`^the MCP config is built into a toolkit (\d+) times$`, (*World).buildTimes)
	sc.Step(`^every build succeeds and exposes exactly (.+)$`, (*World).everyBuildExposes)
	sc.Step(`^the toolkit is closed$`, (*World).toolkitClosed)
}

func (w *World) toolkitClosed() error {
	if w.TK().Current == "" {
		return fmt.Errorf("harness: no toolkit to close")
	}
	if _, err := w.Must("toolkit.close", map[string]any{"toolkit": w.TK().Current}); err != nil {
		return err
	}
	kept := w.TK().All[:0]
	for _, t := range w.TK().All {
		if t != w.TK().Current {
			kept = append(kept, t)
		}
	}
	w.TK().All, w.TK().Current = kept, ""
	return nil
}

func (w *World) stallingServer(name, transport, phase, timeout string) error {
	var cfg map[string]any
	switch {
	case transport == "stdio" && phase == "spawn":
		cfg = w.StdioServer(name, "--start-delay", spawnDelay.String())
	case transport == "stdio":
		cfg = w.StdioServer(name, "--stall", phase)
	case phase == "spawn":
		return fmt.Errorf("harness: only a stdio server has a spawn phase (%q is %s)", name, transport)
	default:
		start := mcpfake.StartStreamableStalling
		if transport == "SSE only" {
			start = mcpfake.StartSSEStalling
		}
		s, err := start(phase)
		if err != nil {
			return fmt.Errorf("harness: stalling MCP fake: %w", err)
		}
		w.mcp().HTTP[name] = s
		w.mcp().closers = append(w.mcp().closers, s.Close)
		cfg = map[string]any{"url": s.URL()}
	}
	// A slow spawn ends by itself; every other stall lasts until something ends it.
	stall := timing.Forever
	if phase == "spawn" {
		stall = spawnDelay
	}
	w.addStalledServer(name, cfg, phase, timeout, stall)
	return nil
}

func (w *World) hungStdioServer(name, timeout string) error {
	// The hung fake reads the client's initialize and never answers it.
	w.addStalledServer(name, w.StdioServer(name, "--hang"), "initialize", timeout, timing.Forever)
	return nil
}

// addStalledServer puts a fake stalling in phase in the config, with its own timeout when the
// step gives one, and records the stall so the bound and floor of the calls to come count it
// and a quick attempt knows where the client must get to.
func (w *World) addStalledServer(name string, cfg map[string]any, phase, timeout string, stall time.Duration) {
	if timeout != "" {
		var ms int
		fmt.Sscan(timeout, &ms)
		ms = w.A.QuickMs(ms)
		cfg["timeout"] = ms
		w.mcp().Timeouts[name] = ms
	}
	w.mcp().Servers[name] = cfg
	w.stallsIn(name, phase, stall)
}

// sawPhase is the evidence that a stall scenario stalled where it says: without it a port
// failing earlier (or never connecting) would pass for the wrong reason.
func (w *World) sawPhase(name, phase string) error {
	if path, ok := w.mcp().PIDFiles[name]; ok {
		if _, err := common.ReadPID(path); err != nil {
			return &kernel.Inconclusive{Why: fmt.Sprintf("the stdio server of %q was never started (no PID file)", name)}
		}
		if phase == "spawn" {
			return nil
		}
		b, err := os.ReadFile(mcpfake.StalledFile(path))
		if err != nil || string(b) != phase {
			return &kernel.Inconclusive{Why: fmt.Sprintf("the stdio server of %q never received %s: the client stopped earlier", name, phase)}
		}
		return nil
	}
	h, ok := w.mcp().HTTP[name]
	if !ok {
		return fmt.Errorf("harness: %q is not a stalling fake of this scenario", name)
	}
	if sse, gets := h.SSEOnly(); sse && gets == 0 && h.Stalls() == 0 {
		// Not timing: the port never tried the SSE fallback g3-sse-only-fallback judges, so
		// this SSE-only server's phase cannot be reached by any attempt.
		return &kernel.Blocked{By: "g3-sse-only-fallback", Why: fmt.Sprintf("the SSE-only fake %q never had its event stream opened (no GET /sse; %d connections): the client never tried the SSE fallback, so it never reached %s", name, h.Connections(), phase)}
	}
	if h.Stalls() == 0 {
		return &kernel.Inconclusive{Why: fmt.Sprintf("the fake %q never received %s (%d connections): the client stopped earlier", name, phase, h.Connections())}
	}
	return nil
}

func (w *World) mcpActionPreCancelled(action string) error {
	return w.MCPActionArgs(action, map[string]any{"cancelAfterMs": 0})
}

// leftovers lists what the scenario's fakes still see open: stdio children that run and
// TCP connections the client has not closed (with idle false, only connections that still
// carry a request: an open stream or an unanswered call, not an idle keep-alive one). A
// stdio server that never started is fine.
func (w *World) leftovers(idle bool) []string {
	var out []string
	for _, name := range common.SortedNames(w.mcp().PIDFiles) {
		pid, err := common.ReadPID(w.mcp().PIDFiles[name])
		if err == nil && !mcpfake.ProcessGone(pid) {
			out = append(out, fmt.Sprintf("the stdio server of %q (pid %d) still runs", name, pid))
		}
	}
	for _, name := range common.SortedNames(w.mcp().HTTP) {
		h := w.mcp().HTTP[name]
		if n := h.InFlight(); n > 0 {
			out = append(out, fmt.Sprintf("the fake %q still serves %d requests (an open stream or an unanswered call)", name, n))
		} else if n := h.Open(); idle && n > 0 {
			out = append(out, fmt.Sprintf("the fake %q has %d open connections", name, n))
		}
	}
	// A hung fake never answers: any connection still open to it is a call still waiting.
	for _, name := range common.SortedNames(w.mcp().Hangs) {
		if n := w.mcp().Hangs[name].Open(); n > 0 {
			out = append(out, fmt.Sprintf("the fake %q has %d open connections", name, n))
		}
	}
	return out
}

func (w *World) nothingLeft() error { return w.nothingLeftOf(true) }

// nothingStreaming is the teardown check after a normal close: an idle pooled connection
// is not a leak there (SPEC.md §1, G3.9); a stream or a child still running is.
func (w *World) nothingStreaming() error { return w.nothingLeftOf(false) }

func (w *World) nothingLeftOf(idle bool) error {
	if w.Settle(func() bool { return len(w.leftovers(idle)) == 0 }) {
		return nil
	}
	return fmt.Errorf("%s, %s after %s returned", strings.Join(w.leftovers(idle), "; "), timing.ExitGrace, w.LastOp())
}

func (w *World) buildTimes(n int) error {
	for i := 0; i < n; i++ {
		if err := w.MCPActionArgs("built into a toolkit", nil); err != nil {
			return err
		}
		if !w.Last().OK {
			return fmt.Errorf("build %d of %d failed: %s: %s", i+1, n, w.Last().Error.Kind, w.Last().Error.Message)
		}
		names, err := w.toolNames()
		if err != nil {
			return err
		}
		w.TK().Builds = append(w.TK().Builds, names)
	}
	return nil
}

func (w *World) everyBuildExposes(list string) error {
	if len(w.TK().Builds) == 0 {
		return fmt.Errorf("harness: no build was made")
	}
	want := common.SplitList(list)
	sort.Strings(want)
	for i, got := range w.TK().Builds {
		if d := kernel.DiffOf(want, got, cmpopts.EquateEmpty()); d != nil {
			return fmt.Errorf("build %d of %d exposes other tools (-want +got):\n%w", i+1, len(w.TK().Builds), d)
		}
	}
	return nil
}
