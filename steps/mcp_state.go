package steps

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

// mcpState is the MCP side of one scenario: the fakes it started and the config it builds.
type mcpState struct {
	servers  map[string]map[string]any // the config's servers, by name
	asFile   bool
	raw      string                    // a config written out by the scenario, placeholders filled (contract C3)
	filled   map[string]map[string]any // the stdio fakes its placeholders made, by name
	order    []string                  // catalogue servers in the order declared: a file keeps it
	endpoint *endpoint.Route           // the http tools' endpoint fake, when the scenario has one
	closers  []func()
	http     map[string]*mcpfake.HTTPServer
	hangs    map[string]*faults.Hang
	fallback map[string]*faults.SSEFallback
	pidFiles map[string]string
	timeouts map[string]int // per-server timeout in ms, where the scenario set one
	// aliveAtReturn is, per stdio server, whether its child still ran the moment the last
	// MCP call's answer arrived (no grace): what "disconnects before returning" is judged on.
	aliveAtReturn map[string]bool
}

func (m *mcpState) Init(*kernel.Attempt) {
	*m = mcpState{
		servers:  map[string]map[string]any{},
		http:     map[string]*mcpfake.HTTPServer{},
		hangs:    map[string]*faults.Hang{},
		fallback: map[string]*faults.SSEFallback{},
		pidFiles: map[string]string{},
		filled:   map[string]map[string]any{},
		timeouts: map[string]int{},
	}
}

// snapshotChildren records which stdio children run right now.
func (m *mcpState) snapshotChildren() {
	m.aliveAtReturn = map[string]bool{}
	for name, path := range m.pidFiles {
		if pid, err := common.ReadPID(path); err == nil {
			m.aliveAtReturn[name] = !mcpfake.ProcessGone(pid)
		}
	}
}

func (m *mcpState) Close() {
	for i := len(m.closers) - 1; i >= 0; i-- {
		m.closers[i]()
	}
	m.closers = nil
	// A port that failed teardown leaves its stdio child running; the harness must not.
	for _, path := range m.pidFiles {
		if pid, err := common.ReadPID(path); err == nil && !mcpfake.ProcessGone(pid) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// stdioServer returns the config of a stdio fake that writes its PID to a file. The command
// is an array (program first), the shape the shared config contract gives every port.
func (w *World) stdioServer(name string, extra ...string) map[string]any {
	pid := filepath.Join(w.a.Dir(), "stdio-"+name+".pid")
	w.mcp().pidFiles[name] = pid
	argv := append(append([]string(nil), w.env().StdioArgv...), "--pid-file", pid)
	argv = append(argv, extra...)
	cmd := make([]any, 0, len(argv))
	for _, a := range argv {
		cmd = append(cmd, a)
	}
	return map[string]any{"command": cmd}
}

func (w *World) streamableServer(name string) (map[string]any, error) {
	s, err := mcpfake.StartStreamable()
	if err != nil {
		return nil, fmt.Errorf("harness: fake MCP server: %w", err)
	}
	w.mcp().http[name] = s
	w.mcp().closers = append(w.mcp().closers, s.Close)
	return map[string]any{"url": s.URL()}, nil
}

func (w *World) sseOnlyServer(name string) (map[string]any, error) {
	s, err := mcpfake.StartSSE()
	if err != nil {
		return nil, fmt.Errorf("harness: fake SSE MCP server: %w", err)
	}
	w.mcp().http[name] = s
	w.mcp().closers = append(w.mcp().closers, s.Close)
	return map[string]any{"url": s.URL()}, nil
}

func (w *World) hangServer(name string) (map[string]any, error) {
	h, err := faults.StartHang()
	if err != nil {
		return nil, fmt.Errorf("harness: hang server: %w", err)
	}
	w.mcp().hangs[name] = h
	w.mcp().closers = append(w.mcp().closers, h.Close)
	return map[string]any{"url": h.URL()}, nil
}

// configArg is the mcpConfig protocol argument: inline, or a file the scenario wrote.
func (w *World) configArg() (map[string]any, error) {
	if w.mcp().raw != "" {
		return w.rawConfigArg()
	}
	servers := map[string]any{}
	for k, v := range w.mcp().servers {
		servers[k] = v
	}
	doc := map[string]any{"mcpServers": servers}
	if !w.mcp().asFile {
		return map[string]any{"inline": doc}, nil
	}
	b, _ := json.MarshalIndent(doc, "", "  ")
	if len(w.mcp().order) == len(w.mcp().servers) && len(w.mcp().order) > 1 {
		b = orderedConfig(w.mcp().order, w.mcp().servers)
	}
	path := filepath.Join(w.a.Dir(), "mcp.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return nil, fmt.Errorf("harness: writing %s: %w", path, err)
	}
	return map[string]any{"file": path}, nil
}

// loadFixture renders a shared fixture config: a server whose url is "{{FAKE_HTTP}}" gets a
// streamable fake, one whose command is "{{FAKE_STDIO}}" gets the stdio fake.
func (w *World) loadFixture(name string) error {
	path := filepath.Join(w.env().Root, "fixtures", "mcp", name)
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
			base, err := w.streamableServer(srv)
			if err != nil {
				return err
			}
			cfg["url"] = base["url"]
		case cfg["command"] == "{{FAKE_STDIO}}":
			for k, v := range w.stdioServer(srv) {
				cfg[k] = v
			}
		}
		w.mcp().servers[srv] = cfg
	}
	return nil
}

// waitFor polls cond until it holds or the grace period ends; it bounds every wait.
// settle waits up to timing.ExitGrace for what a port started to end, and keeps the longest time a
// port took to get there (Outcome.Settled: the bench shows how close ports come to the grace).
func (w *World) settle(cond func() bool) bool {
	start := time.Now()
	if !common.WaitFor(timing.ExitGrace, cond) {
		w.a.Waited(timing.ExitGrace)
		return false
	}
	w.a.Settled(time.Since(start))
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
