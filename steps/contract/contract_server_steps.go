package contract

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/common"

	mcpfake "github.com/muthuishere/toolnexus-conformance/fakes/mcp"
)

// Steps on what an MCP fake was sent (headers, the child's env and cwd) and how a toolkit
// orders and shapes its MCP tools (contract C3, C5.6, C5.8).
func registerContractServerSteps(sc *kernel.Steps) {
	sc.Step(`^an MCP server "([^"]*)" over streamable HTTP whose handshake answers after (\d+) ms$`, (*World).slowHandshake)
	sc.Step(`^an MCP server "([^"]*)" over (streamable HTTP|SSE only) that answers 401$`, (*World).unauthorizedServer)
	sc.Step(`^server "([^"]*)" has the timeout (\d+) ms$`, (*World).serverTimeout)
	sc.Step(`^server "([^"]*)" sends the headers (.+)$`, (*World).serverHeaders)
	sc.Step(`^the fake "([^"]*)" received "([^"]*)" as "([^"]*)" on ((?:initialize|tools/list|tools/call)(?:(?:, | and )(?:initialize|tools/list|tools/call))*)$`, (*World).headerOnMethods)
	sc.Step(`^the fake "([^"]*)" received "([^"]*)" as "([^"]*)" on every request, its SSE GET included$`, (*World).headerOnEvery)
	sc.Step(`^the scenario's temp dir has a directory "([^"]*)"$`, (*World).tempSubdir)
	sc.Step(`^the child reports "([^"]*)" as (null|"[^"]*")$`, (*World).childReports)
	sc.Step(`^the child's working directory is the temp dir's "([^"]*)"$`, (*World).childCwd)
	sc.Step(`^the described tool names are, in order, (.+)$`, (*World).describedNamesInOrder)
	sc.Step(`^every tool of "([^"]*)" keeps the server's schema, with type "object", properties and additionalProperties false$`, (*World).schemasKept)
}

func (w *World) slowHandshake(name string, ms int) error {
	cfg, err := w.httpCatalogue(name, "streamable HTTP", mcpfake.HTTPOptions{ServerOptions: mcpfake.ServerOptions{InitDelay: time.Duration(ms) * time.Millisecond}})
	if err != nil {
		return err
	}
	w.mcp().Servers[name] = cfg
	w.mcp().Order = append(w.mcp().Order, name)
	return nil
}

func (w *World) unauthorizedServer(name, transport string) error {
	cfg, err := w.httpCatalogue(name, transport, mcpfake.HTTPOptions{Unauthorized: true})
	if err != nil {
		return err
	}
	cfg["timeout"] = 3000
	w.mcp().Servers[name] = cfg
	return nil
}

func (w *World) serverCfg(name string) (map[string]any, error) {
	cfg, ok := w.mcp().Servers[name]
	if !ok {
		return nil, fmt.Errorf("harness: no server %q in this scenario", name)
	}
	return cfg, nil
}

func (w *World) serverTimeout(name string, ms int) error {
	cfg, err := w.serverCfg(name)
	if err != nil {
		return err
	}
	cfg["timeout"] = ms
	return nil
}

func (w *World) serverHeaders(name, raw string) error {
	cfg, err := w.serverCfg(name)
	if err != nil {
		return err
	}
	var h map[string]string
	if err := common.StepJSON(raw, &h); err != nil {
		return fmt.Errorf("harness: headers %s are not a JSON object of strings: %w", raw, err)
	}
	cfg["headers"] = h
	return nil
}

func (w *World) httpFake(name string) (*mcpfake.HTTPServer, error) {
	s, ok := w.mcp().HTTP[name]
	if !ok {
		return nil, fmt.Errorf("harness: %q is not an HTTP fake of this scenario", name)
	}
	return s, nil
}

// headerOnMethods checks the header on the requests carrying each JSON-RPC method named
// ("initialize, tools/list and tools/call"); a method the client never sent fails.
func (w *World) headerOnMethods(name, header, value, methods string) error {
	s, err := w.httpFake(name)
	if err != nil {
		return err
	}
	for _, m := range common.SplitList(strings.ReplaceAll(methods, " and ", ", ")) {
		seen := false
		for _, r := range s.Requests() {
			if !slices.Contains(r.RPCMethods, m) {
				continue
			}
			seen = true
			if got := r.Header.Values(header); len(got) != 1 || got[0] != value {
				return fmt.Errorf("the fake %q received %s: %q on %s; want %q", name, header, got, m, value)
			}
		}
		if !seen {
			return fmt.Errorf("the fake %q never received %s", name, m)
		}
	}
	return nil
}

func (w *World) tempSubdir(dir string) error {
	return os.MkdirAll(filepath.Join(w.A.Dir(), dir), 0o755)
}

// childEnv is the env tool's report, from the last execute.
func (w *World) childEnv() (map[string]any, error) {
	r, err := w.executeResult()
	if err != nil {
		return nil, err
	}
	out, _ := r["output"].(string)
	var m map[string]any
	if r["isError"] == true || json.Unmarshal([]byte(out), &m) != nil {
		return nil, fmt.Errorf("the env tool did not answer its report: %s", common.CompactJSON(r))
	}
	return m, nil
}

func (w *World) childReports(key, want string) error {
	m, err := w.childEnv()
	if err != nil {
		return err
	}
	if got := common.CompactJSON(m[key]); got != want {
		return fmt.Errorf("the child reports %s as %s; want %s (its report: %s)", key, got, want, common.CompactJSON(m))
	}
	return nil
}

func (w *World) childCwd(dir string) error {
	m, err := w.childEnv()
	if err != nil {
		return err
	}
	want, _ := filepath.EvalSymlinks(filepath.Join(w.A.Dir(), dir))
	got, _ := m["cwd"].(string)
	if real, err := filepath.EvalSymlinks(got); err == nil {
		got = real
	}
	if got != want {
		return fmt.Errorf("the child's working directory is %s; want %s", common.CompactJSON(m["cwd"]), want)
	}
	return nil
}

func (w *World) describedNamesInOrder(list string) error {
	tools, err := w.describedTools()
	if err != nil {
		return err
	}
	var got []string
	for _, t := range tools {
		got = append(got, fmt.Sprint(t["name"]))
	}
	if d := kernel.DiffOf(common.SplitList(list), got); d != nil {
		return fmt.Errorf("the described tool order differs (-want +got):\n%w", d)
	}
	return nil
}

// schemasKept checks C5.8 for every tool the schema catalogue lists: each key the server sent
// is kept as sent (type aside), and type, properties and additionalProperties are set.
func (w *World) schemasKept(server string) error {
	tools, err := w.describedTools()
	if err != nil {
		return err
	}
	byName := map[string]map[string]any{}
	for _, t := range tools {
		s, _ := t["inputSchema"].(map[string]any)
		byName[fmt.Sprint(t["name"])] = s
	}
	for _, info := range mcpfake.CatalogueTools(mcpfake.CatalogueSchema, false) {
		exposed := sanitizeName(server) + "_" + sanitizeName(info.Name)
		got, ok := byName[exposed]
		if !ok {
			return fmt.Errorf("the toolkit has no tool %q", exposed)
		}
		sent := info.Schema()
		for _, k := range slices.Sorted(maps.Keys(sent)) { // sorted: the first difference named is the same every run
			v := sent[k]
			if k == "type" || k == "additionalProperties" {
				continue
			}
			if d := kernel.DiffOf(v, got[k]); d != nil {
				return fmt.Errorf("%s: the schema key %q differs from what the server sent (-server +exposed):\n%w", exposed, k, d)
			}
		}
		if got["type"] != "object" || got["additionalProperties"] != false {
			return fmt.Errorf("%s: type %s and additionalProperties %s; want \"object\" and false", exposed, common.CompactJSON(got["type"]), common.CompactJSON(got["additionalProperties"]))
		}
		if _, ok := got["properties"].(map[string]any); !ok {
			return fmt.Errorf("%s: properties is %s; want an object ({} when the server sent none)", exposed, common.CompactJSON(got["properties"]))
		}
	}
	return nil
}

// sanitizeName is the shared contract's sanitize, for names the suite expects.
func sanitizeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 128 && (r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// headerOnEvery first proves the connection it speaks of, then judges the header on it: the
// client held an SSE session on the configured URL (a GET of that path and a POST to its
// session), and every request carried the header. A client that never took the SSE transport
// cannot be judged here: that is G3.6's failure (g3-sse-only-fallback), named, not a timing
// question.
func (w *World) headerOnEvery(name, header, value string) error {
	s, err := w.httpFake(name)
	if err != nil {
		return err
	}
	u, err := url.Parse(s.URL())
	if err != nil {
		return fmt.Errorf("harness: %q's URL: %w", name, err)
	}
	reqs := s.Requests()
	gets, session := 0, 0
	var seen []string
	for _, r := range reqs {
		seen = append(seen, r.Method+" "+r.Path)
		switch {
		case r.Method == "GET" && r.Path == u.EscapedPath():
			gets++
		case r.Method == "POST" && strings.Contains(r.RawQuery, "sessionid="):
			session++
		}
	}
	if gets == 0 || session == 0 {
		return &kernel.Blocked{By: "g3-sse-only-fallback", Why: fmt.Sprintf("the client never held an SSE session at %s (%d GETs there, %d POSTs to a session; requests: %s), so the header on the SSE transport cannot be judged",
			u.EscapedPath(), gets, session, strings.Join(common.Dedup(seen), ", "))}
	}
	for _, r := range reqs {
		if r.Method == "DELETE" {
			continue // a session's end, sent by some SDKs without the entry's headers
		}
		if got := r.Header.Values(header); len(got) != 1 || got[0] != value {
			return fmt.Errorf("the fake %q received %s: %q on %s %s %v; want %q", name, header, got, r.Method, r.Path, r.RPCMethods, value)
		}
	}
	return nil
}
