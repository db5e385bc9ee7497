package mcp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/common"

	"github.com/muthuishere/toolnexus-conformance/fakes/endpoint"
	"github.com/muthuishere/toolnexus-conformance/fakes/faults"
	mcpfake "github.com/muthuishere/toolnexus-conformance/fakes/mcp"
	"github.com/muthuishere/toolnexus-conformance/internal/timing"
)

// State is the MCP side of one scenario: the fakes it started and the config it builds.
type State struct {
	Servers  map[string]map[string]any // the config's servers, by name
	AsFile   bool
	Raw      string                    // a config written out by the scenario, placeholders filled (contract C3)
	Filled   map[string]map[string]any // the stdio fakes its placeholders made, by name
	Order    []string                  // catalogue servers in the order declared: a file keeps it
	Endpoint *endpoint.Route           // the http tools' endpoint fake, when the scenario has one
	closers  []func()
	HTTP     map[string]*mcpfake.HTTPServer
	Hangs    map[string]*faults.Hang
	Fallback map[string]*faults.SSEFallback
	PIDFiles map[string]string
	Timeouts map[string]int // per-server timeout in ms, where the scenario set one
	// aliveAtReturn is, per stdio server, whether its child still ran the moment the last
	// MCP call's answer arrived (no grace): what "disconnects before returning" is judged on.
	AliveAtReturn map[string]bool
}

// AddCloser has fn run when the attempt ends (a fake the scenario started).
func (m *State) AddCloser(fn func()) { m.closers = append(m.closers, fn) }

func (m *State) Init(*kernel.Attempt) {
	*m = State{
		Servers:  map[string]map[string]any{},
		HTTP:     map[string]*mcpfake.HTTPServer{},
		Hangs:    map[string]*faults.Hang{},
		Fallback: map[string]*faults.SSEFallback{},
		PIDFiles: map[string]string{},
		Filled:   map[string]map[string]any{},
		Timeouts: map[string]int{},
	}
}

// SnapshotChildren records which stdio children run right now.
func (m *State) SnapshotChildren() {
	m.AliveAtReturn = map[string]bool{}
	for name, path := range m.PIDFiles {
		if pid, err := common.ReadPID(path); err == nil {
			m.AliveAtReturn[name] = !mcpfake.ProcessGone(pid)
		}
	}
}

func (m *State) Close() {
	for i := len(m.closers) - 1; i >= 0; i-- {
		m.closers[i]()
	}
	m.closers = nil
	// A port that failed teardown leaves its stdio child running; the harness must not.
	for _, path := range m.PIDFiles {
		if pid, err := common.ReadPID(path); err == nil && !mcpfake.ProcessGone(pid) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// StdioServer returns the config of a stdio fake that writes its PID to a file. The command
// is an array (program first), the shape the shared config contract gives every port.
func (w *World) StdioServer(name string, extra ...string) map[string]any {
	pid := filepath.Join(w.A.Dir(), "stdio-"+name+".pid")
	w.mcp().PIDFiles[name] = pid
	argv := append(append([]string(nil), w.Env().StdioArgv...), "--pid-file", pid)
	argv = append(argv, extra...)
	cmd := make([]any, 0, len(argv))
	for _, a := range argv {
		cmd = append(cmd, a)
	}
	return map[string]any{"command": cmd}
}

func (w *World) StreamableServer(name string) (map[string]any, error) {
	return w.StreamableServerAt(name, "")
}

// StreamableServerAt is StreamableServer served at path ("": /mcp) and nowhere else: a client
// that does not use the configured URL's path reaches nothing.
func (w *World) StreamableServerAt(name, path string) (map[string]any, error) {
	s, err := mcpfake.StartStreamableWith(mcpfake.HTTPOptions{Path: path})
	if err != nil {
		return nil, fmt.Errorf("harness: fake MCP server: %w", err)
	}
	w.mcp().HTTP[name] = s
	w.mcp().closers = append(w.mcp().closers, s.Close)
	return map[string]any{"url": s.URL()}, nil
}

func (w *World) sseOnlyServer(name string) (map[string]any, error) {
	s, err := mcpfake.StartSSE()
	if err != nil {
		return nil, fmt.Errorf("harness: fake SSE MCP server: %w", err)
	}
	w.mcp().HTTP[name] = s
	w.mcp().closers = append(w.mcp().closers, s.Close)
	return map[string]any{"url": s.URL()}, nil
}

func (w *World) HangServer(name string) (map[string]any, error) {
	h, err := faults.StartHang()
	if err != nil {
		return nil, fmt.Errorf("harness: hang server: %w", err)
	}
	w.mcp().Hangs[name] = h
	w.mcp().closers = append(w.mcp().closers, h.Close)
	return map[string]any{"url": h.URL()}, nil
}

// ConfigArg is the mcpConfig protocol argument: inline, or a file the scenario wrote.
func (w *World) ConfigArg() (map[string]any, error) {
	if w.mcp().Raw != "" {
		return w.rawConfigArg()
	}
	servers := map[string]any{}
	for k, v := range w.mcp().Servers {
		servers[k] = v
	}
	doc := map[string]any{"mcpServers": servers}
	if !w.mcp().AsFile {
		return map[string]any{"inline": doc}, nil
	}
	b, _ := json.MarshalIndent(doc, "", "  ")
	if len(w.mcp().Order) == len(w.mcp().Servers) && len(w.mcp().Order) > 1 {
		b = orderedConfig(w.mcp().Order, w.mcp().Servers)
	}
	path := filepath.Join(w.A.Dir(), "mcp.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return nil, fmt.Errorf("harness: writing %s: %w", path, err)
	}
	return map[string]any{"file": path}, nil
}

// loadFixture renders a shared fixture config: a server whose url is "{{FAKE_HTTP}}" gets a
// streamable fake, one whose command is "{{FAKE_STDIO}}" gets the stdio fake.
func (w *World) loadFixture(name string) error {
	path := filepath.Join(w.Env().Root, "fixtures", "mcp", name)
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("harness: fixture %s: %w", name, err)
	}
	var doc struct {
		McpServers map[string]map[string]any `json:"mcpServers"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return fmt.Errorf("harness: fixture %s is not valid JSON: %w", name, err)
	}
	if len(doc.McpServers) == 0 {
		return fmt.Errorf("harness: fixture %s has no mcpServers", name)
	}
	for srv, cfg := range doc.McpServers {
		switch {
		case cfg["url"] == "{{FAKE_HTTP}}":
			base, err := w.StreamableServer(srv)
			if err != nil {
				return err
			}
			cfg["url"] = base["url"]
		case cfg["command"] == "{{FAKE_STDIO}}":
			for k, v := range w.StdioServer(srv) {
				cfg[k] = v
			}
		}
		w.mcp().Servers[srv] = cfg
	}
	return nil
}

// waitFor polls cond until it holds or the grace period ends; it bounds every wait.
// Settle waits up to timing.ExitGrace for what a port started to end, and keeps the longest time a
// port took to get there (Outcome.Settled: the bench shows how close ports come to the grace).
func (w *World) Settle(cond func() bool) bool {
	start := time.Now()
	if !common.WaitFor(timing.ExitGrace, cond) {
		w.A.Waited(timing.ExitGrace)
		return false
	}
	w.A.Settled(time.Since(start))
	return true
}

// orderedConfig writes {"mcpServers": …} with the servers in the order given: the config
// order C2.8 and C5.6 judge.
func orderedConfig(order []string, servers map[string]map[string]any) []byte {
	var b strings.Builder
	b.WriteString(`{"mcpServers": {`)
	for i, name := range order {
		k, _ := json.Marshal(name)
		v, _ := json.Marshal(servers[name])
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(string(k) + ": " + string(v))
	}
	b.WriteString("}}")
	return []byte(b.String())
}

// rawConfigArg is configArg for a config the scenario wrote: a file, or the object sent as
// written (a port whose maps keep insertion order sees the scenario's order).
func (w *World) rawConfigArg() (map[string]any, error) {
	if !w.mcp().AsFile {
		return map[string]any{"inline": json.RawMessage(w.mcp().Raw)}, nil
	}
	path := filepath.Join(w.A.Dir(), "mcp.json")
	if err := os.WriteFile(path, []byte(w.mcp().Raw), 0o644); err != nil {
		return nil, fmt.Errorf("harness: writing %s: %w", path, err)
	}
	return map[string]any{"file": path}, nil
}
