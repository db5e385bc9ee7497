package mcp

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/client"
	"github.com/muthuishere/toolnexus-conformance/steps/common"

	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/muthuishere/toolnexus-conformance/fakes/faults"
	mcpfake "github.com/muthuishere/toolnexus-conformance/fakes/mcp"
	"github.com/muthuishere/toolnexus-conformance/internal/timing"
)

func registerMCPSteps(sc *kernel.Steps) {
	sc.Step(`^an MCP server "([^"]*)" over (stdio|streamable HTTP|SSE only)$`, (*World).mcpServer)
	sc.Step(`^an MCP server "([^"]*)" over stdio that takes (\d+) ms to exit$`, (*World).slowExitServer)
	sc.Step(`^an MCP server "([^"]*)" over (stdio|streamable HTTP|SSE only) with the tools filter (.+)$`, (*World).mcpServerFiltered)
	sc.Step(`^a hung MCP server "([^"]*)"$`, (*World).hungServer)
	sc.Step(`^a hung MCP server "([^"]*)" with a timeout of (\d+) ms$`, (*World).hungServerTimeout)
	sc.Step(`^a slow MCP server "([^"]*)" that answers after (\d+) s$`, (*World).slowServer)
	sc.Step(`^an MCP server "([^"]*)" that refuses streamable HTTP and hangs on SSE, with a timeout of (\d+) ms$`, (*World).fallbackHangServer)
	sc.Step(`^an unreachable MCP server "([^"]*)"$`, (*World).unreachableServer)
	sc.Step(`^a disabled MCP server "([^"]*)"$`, (*World).disabledServer)
	sc.Step(`^the shared fixture config "([^"]*)"$`, (*World).loadFixture)
	sc.Step(`^the MCP config is written to a file$`, (*World).configAsFile)
	sc.Step(`^the MCP config is (loaded|loaded without a context|listed|built into a toolkit)(?: with a (cancel after|deadline of) (\d+) ms)?$`, (*World).mcpAction)
	sc.Step(`^the tools are exactly (.+)$`, (*World).toolsExactly)
	sc.Step(`^the tools match the fixture "([^"]*)"$`, (*World).toolsMatchFixture)
	sc.Step(`^server "([^"]*)" is (connected|failed|disabled)$`, (*World).serverStatus)
	sc.Step(`^the inventory of "([^"]*)" lists exactly (.+) with the fake's descriptions and input schemas$`, (*World).inventoryLists)
	sc.Step(`^the stdio server of "([^"]*)" is gone$`, (*World).stdioGone)
	sc.Step(`^the fake "([^"]*)" saw no connection attempt$`, (*World).sawNoConnection)
	sc.Step(`^the fake "([^"]*)" saw the client reach its SSE endpoint$`, (*World).sawSSE)
	sc.Step(`^the fake "([^"]*)" has no open connection$`, (*World).noOpenConnection)
}

func (w *World) mcpServer(name, transport string) error {
	var cfg map[string]any
	var err error
	switch transport {
	case "stdio":
		cfg = w.StdioServer(name)
	case "streamable HTTP":
		cfg, err = w.StreamableServer(name)
	case "SSE only":
		cfg, err = w.sseOnlyServer(name)
	}
	if err != nil {
		return err
	}
	w.mcp().Servers[name] = cfg
	return nil
}

// slowExitServer is a stdio server that takes ms to exit once its stdin closed: a client that
// returns before its children are gone is then caught whatever the machine's speed.
func (w *World) slowExitServer(name string, ms int) error {
	w.mcp().Servers[name] = w.StdioServer(name, "--exit-delay", (time.Duration(ms) * time.Millisecond).String())
	return nil
}

func (w *World) mcpServerFiltered(name, transport, filter string) error {
	var tools map[string]any
	if err := common.StepJSON(filter, &tools); err != nil {
		return fmt.Errorf("harness: tools filter %s is not a JSON object: %w", filter, err)
	}
	if err := w.mcpServer(name, transport); err != nil {
		return err
	}
	// Sent as written: the key order reaches ports whose maps keep insertion order (G7.10).
	w.mcp().Servers[name]["tools"] = json.RawMessage(filter)
	return nil
}

func (w *World) hungServer(name string) error {
	cfg, err := w.HangServer(name)
	if err != nil {
		return err
	}
	w.mcp().Servers[name] = cfg
	w.stallsFor(name, timing.Forever)
	return nil
}

func (w *World) hungServerTimeout(name string, ms int) error {
	if err := w.hungServer(name); err != nil {
		return err
	}
	w.mcp().Servers[name]["timeout"] = ms
	return nil
}

func (w *World) slowServer(name string, secs int) error {
	s, err := faults.StartSlow(time.Duration(secs) * time.Second)
	if err != nil {
		return fmt.Errorf("harness: slow server: %w", err)
	}
	w.mcp().closers = append(w.mcp().closers, s.Close)
	w.mcp().Servers[name] = map[string]any{"url": s.URL()}
	w.stalls().slow[name] = s
	w.stallsFor(name, time.Duration(secs)*time.Second)
	return nil
}

func (w *World) fallbackHangServer(name string, ms int) error {
	f, err := faults.StartSSEFallbackHang()
	if err != nil {
		return fmt.Errorf("harness: SSE fallback server: %w", err)
	}
	w.mcp().Fallback[name] = f
	w.mcp().closers = append(w.mcp().closers, f.Close)
	w.mcp().Servers[name] = map[string]any{"url": f.URL(), "timeout": ms}
	w.stallsFor(name, timing.Forever)
	return nil
}

func (w *World) unreachableServer(name string) error {
	url, err := faults.ClosedPort()
	if err != nil {
		return fmt.Errorf("harness: closed port: %w", err)
	}
	w.mcp().Servers[name] = map[string]any{"url": url, "timeout": 2000}
	return nil
}

// disabledServer points at a counting listener, so any connection attempt is seen.
func (w *World) disabledServer(name string) error {
	cfg, err := w.HangServer(name)
	if err != nil {
		return err
	}
	cfg["enabled"] = false
	w.mcp().Servers[name] = cfg
	return nil
}

func (w *World) configAsFile() error { w.mcp().AsFile = true; return nil }

// mcpAction is the scenario's MCP call; on a quick first attempt (quick.go) its limit is cut,
// and it runs again as written when that attempt proved nothing.
func (w *World) mcpAction(action, limit, ms string) error {
	return w.A.QuickAction(func() error {
		args := map[string]any{}
		if ms != "" {
			n, _ := strconv.Atoi(ms)
			n = w.A.QuickMs(n)
			if limit == "cancel after" {
				args["cancelAfterMs"] = n
			} else {
				args["deadlineMs"] = n
			}
		}
		return w.MCPActionArgs(action, args)
	})
}

// callerLimit is the caller's cancel or deadline in args, the earlier of the two; an
// already-cancelled call (cancelAfterMs 0) still has a limit, so its bound is pinned too.
func callerLimitOf(args map[string]any) time.Duration {
	limit := time.Duration(0)
	for _, k := range []string{"cancelAfterMs", "deadlineMs"} {
		if n, ok := args[k].(int); ok {
			d := max(time.Duration(n)*time.Millisecond, time.Millisecond)
			if limit == 0 || d < limit {
				limit = d
			}
		}
	}
	return limit
}

// MCPActionArgs sends the op for action with the scenario's config and the given timing.
func (w *World) MCPActionArgs(action string, args map[string]any) error {
	cfg, err := w.ConfigArg()
	if err != nil {
		return err
	}
	if args == nil {
		args = map[string]any{}
	}
	args["mcpConfig"] = cfg
	callerLimit := callerLimitOf(args)
	w.A.SetLimit(callerLimit)
	op := "mcp.load"
	switch action {
	case "loaded without a context":
		args["context"] = false
	case "listed":
		op = "mcp.list"
	case "built into a toolkit":
		// A client described earlier exists before its toolkit, as in a host's code.
		if w.client().Client != nil {
			if err := client.EnsureClient(w.A); err != nil {
				return err
			}
		}
		op = "toolkit.create"
		h := w.Handle("t")
		args["handle"] = h
		w.TK().Current = h
		w.TK().All = append(w.TK().All, h)
	}
	bound, floor := w.pin(callerLimit)
	_, err = w.A.CallBounded(op, args, bound, floor)
	w.mcp().SnapshotChildren()
	return err
}

func (w *World) toolNames() ([]string, error) {
	r, err := common.OKResult(w.A)
	if err != nil {
		return nil, err
	}
	list, _ := r["tools"].([]any)
	names := []string{}
	for _, v := range list {
		s, _ := v.(string)
		names = append(names, s)
	}
	sort.Strings(names)
	return names, nil
}

func (w *World) toolsExactly(list string) error {
	want := common.SplitList(list)
	sort.Strings(want)
	got, err := w.toolNames()
	if err != nil {
		return err
	}
	// "none" is an empty list; a port's empty list must equal it however it was built.
	if d := kernel.DiffOf(want, got, cmpopts.EquateEmpty()); d != nil {
		return fmt.Errorf("tool names differ (-want +got):\n%w", d)
	}
	return nil
}

func (w *World) toolsMatchFixture(name string) error {
	b, err := common.ReadFixture(w.Env().Root, name)
	if err != nil {
		return err
	}
	var want []string
	if err := json.Unmarshal(b, &want); err != nil {
		return fmt.Errorf("harness: fixture %s is not a JSON list of names: %w", name, err)
	}
	sort.Strings(want)
	got, err := w.toolNames()
	if err != nil {
		return err
	}
	if d := kernel.DiffOf(want, got); d != nil {
		return fmt.Errorf("tool names differ from fixture %s (-want +got):\n%w", name, d)
	}
	return nil
}

func (w *World) serverStatus(name, want string) error {
	r, err := common.OKResult(w.A)
	if err != nil {
		return err
	}
	status, _ := r["status"].(map[string]any)
	if got, _ := status[name].(string); got != want {
		return fmt.Errorf("server %q is %q; want %q (status: %v)", name, got, want, status)
	}
	return nil
}

func (w *World) inventoryLists(server, list string) error {
	r, err := common.OKResult(w.A)
	if err != nil {
		return err
	}
	tools, _ := r["tools"].(map[string]any)
	infos, ok := tools[server].([]any)
	if !ok {
		return fmt.Errorf("the inventory has no list for %q (servers: %v)", server, common.KeysOf(tools))
	}
	want := common.SplitList(list)
	sort.Strings(want)
	var got []string
	for _, v := range infos {
		info, _ := v.(map[string]any)
		name, _ := info["name"].(string)
		got = append(got, name)
		if s := mcpfake.Schema(name); s != nil {
			// Every key the server declared must come back unchanged; a port may add
			// keys of its own (e.g. additionalProperties), which parity reports separately.
			reported, _ := info["inputSchema"].(map[string]any)
			for _, k := range slices.Sorted(maps.Keys(s)) { // sorted: the first difference named is the same every run
				v := s[k]
				if d := kernel.DiffOf(v, reported[k]); d != nil {
					return fmt.Errorf("tool %q: input schema key %q differs from the fake's (-fake +reported):\n%w", name, k, d)
				}
			}
			if desc := mcpfake.Description(name); info["description"] != desc {
				return fmt.Errorf("tool %q: description %v; the fake says %q", name, info["description"], desc)
			}
		}
	}
	sort.Strings(got)
	if d := kernel.DiffOf(want, got); d != nil {
		return fmt.Errorf("inventory of %q differs (-want +got):\n%w", server, d)
	}
	return nil
}

func (w *World) stdioGone(name string) error {
	path, ok := w.mcp().PIDFiles[name]
	if !ok {
		return fmt.Errorf("harness: %q is not a stdio server of this scenario", name)
	}
	pid, err := common.ReadPID(path)
	if err != nil {
		return &kernel.Inconclusive{Why: fmt.Sprintf("the stdio server of %q never started (no PID file): %v", name, err)}
	}
	if !w.Settle(func() bool { return mcpfake.ProcessGone(pid) }) {
		return fmt.Errorf("the stdio server of %q (pid %d) is still running %s after the call returned", name, pid, timing.ExitGrace)
	}
	return nil
}

func (w *World) sawNoConnection(name string) error {
	h, ok := w.mcp().Hangs[name]
	if !ok {
		return fmt.Errorf("harness: %q is not a counting fake of this scenario", name)
	}
	if n := h.Accepted(); n != 0 {
		return fmt.Errorf("the fake %q accepted %d connections; want none", name, n)
	}
	return nil
}

func (w *World) sawSSE(name string) error {
	f, ok := w.mcp().Fallback[name]
	if !ok {
		return fmt.Errorf("harness: %q is not an SSE-fallback fake of this scenario", name)
	}
	if f.SSEGets() == 0 {
		// Not a timing question a retry could settle: the port has no SSE fallback, which
		// g3-sse-only-fallback judges. This scenario cannot pass without one.
		return &kernel.Blocked{By: "g3-sse-only-fallback", Why: fmt.Sprintf("the fake %q saw %d POSTs and no GET on its SSE endpoint: the fallback was never tried", name, f.Posts())}
	}
	return nil
}

func (w *World) noOpenConnection(name string) error {
	var open func() int
	if h, ok := w.mcp().HTTP[name]; ok {
		open = h.Open
	} else if h, ok := w.mcp().Hangs[name]; ok {
		open = h.Open
	} else {
		return fmt.Errorf("harness: %q has no connection counter", name)
	}
	if !w.Settle(func() bool { return open() == 0 }) {
		return fmt.Errorf("the fake %q still has %d open connections %s after the call returned", name, open(), timing.ExitGrace)
	}
	return nil
}
