package contract

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/common"

	"github.com/cucumber/godog"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/muthuishere/toolnexus-conformance/fakes/faults"
	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
)

// Steps of the MCP config file (contract C3): a config written out in the scenario, with the
// fakes put in by placeholder, and the secret scan.
func registerContractConfigSteps(sc *kernel.Steps) {
	sc.Step(`^the MCP config (file|inline):$`, (*World).rawConfig)
	sc.Step(`^nothing the adapter emitted contains the secret$`, (*World).noSecretLeaked)
	sc.Step(`^the MCP config is loaded with a cancel after (\d+) ms, for the scan$`, (*World).cancelledLoadForScan)
	sc.Step(`^the status lists exactly the servers (.+)$`, (*World).statusExactly)
	sc.Step(`^the stdio server of "([^"]*)" was started$`, (*World).stdioStarted)
	sc.Step(`^the fake "([^"]*)" got every request at the configured path$`, (*World).requestsAtConfiguredPath)
}

// placeholder is {{kind:name}} or {{kind}} in a scenario's config.
var placeholder = regexp.MustCompile(`\{\{([a-z-]+)(?::([^}:]+))?(?::([a-z]+))?\}\}`)

// rawConfig keeps the scenario's config text as written (its key order included), with each
// placeholder replaced by JSON for a fake of this scenario:
//
//	{{stdio:NAME}}    a stdio fake's server object, {"command": [program, args...]};
//	                  {{stdio:NAME:CATALOGUE}} (and command:, args:) lists that catalogue
//	{{command:NAME}}  that command array alone
//	{{program}}       the stdio fake's program path (a JSON string)
//	{{args:NAME}}     the arguments after the program (a JSON array)
//	{{url:NAME}}      a streamable HTTP fake's URL (a JSON string)
//	{{http:NAME}}     {"url": that URL}
//	{{http-deep:NAME}} {"url": …} of a fake served at a deeper path than /mcp, and only there
//	{{hang:NAME}}     {"url": a listener that counts connections and never answers, "timeout": 2000}
//	{{hang-url:NAME}} that listener's URL alone
//	{{closed}}        the URL of a port nobody listens on
//	{{tmp}}           the scenario's temp dir (a JSON string)
//	{{tmp-path:P}}    P inside it
func (w *World) rawConfig(given string, doc *godog.DocString) error {
	return w.setRawConfig(doc.Content, given == "file")
}

func (w *World) setRawConfig(text string, asFile bool) error {
	var ferr error
	out := placeholder.ReplaceAllStringFunc(text, func(m string) string {
		sub := placeholder.FindStringSubmatch(m)
		v, err := w.fill(sub[1], sub[2], sub[3])
		if err != nil && ferr == nil {
			ferr = err
		}
		b, _ := json.Marshal(v)
		return string(b)
	})
	if ferr != nil {
		return ferr
	}
	if !json.Valid([]byte(out)) {
		return fmt.Errorf("harness: the scenario's MCP config is not JSON once filled:\n%s", out)
	}
	w.mcp().Raw, w.mcp().AsFile = out, asFile
	return nil
}

// fill makes the fake a placeholder names (once per name) and returns its JSON value.
func (w *World) fill(kind, name, catalogue string) (any, error) {
	switch kind {
	case "stdio", "command", "program", "args":
		if name == "" {
			name = "stdio"
		}
		cfg, ok := w.mcp().Filled[name]
		if !ok {
			var extra []string
			if catalogue != "" {
				extra = []string{"--catalogue", catalogue}
			}
			cfg = w.StdioServer(name, extra...)
			w.mcp().Filled[name] = cfg
		}
		cmd, _ := cfg["command"].([]any)
		switch kind {
		case "stdio":
			return cfg, nil
		case "command":
			return cmd, nil
		case "program":
			return cmd[0], nil
		}
		return cmd[1:], nil
	case "url", "http", "http-deep":
		s, ok := w.mcp().HTTP[name]
		if !ok {
			path := ""
			if kind == "http-deep" {
				path, kind = deepPath, "http" // served there only: the URL's path must be kept
			}
			cfg, err := w.StreamableServerAt(name, path)
			if err != nil {
				return nil, err
			}
			if kind == "http" {
				return cfg, nil
			}
			return cfg["url"], nil
		}
		if kind == "http" {
			return map[string]any{"url": s.URL()}, nil
		}
		return s.URL(), nil
	case "hang", "hang-url":
		h, ok := w.mcp().Hangs[name]
		if !ok {
			cfg, err := w.HangServer(name)
			if err != nil {
				return nil, err
			}
			h = w.mcp().Hangs[name]
			_ = cfg
		}
		if kind == "hang" {
			return map[string]any{"url": h.URL(), "timeout": 2000}, nil
		}
		return h.URL(), nil
	case "closed":
		return faults.ClosedPort()
	case "tmp":
		return w.A.Dir(), nil
	case "tmp-path":
		return filepath.Join(w.A.Dir(), name), nil
	}
	return nil, fmt.Errorf("harness: unknown placeholder {{%s}} in the MCP config", kind)
}

// noSecretLeaked scans everything the runner got from the adapter in this scenario: every
// response (results, errors, warnings, status) and its stderr.
func (w *World) noSecretLeaked() error {
	if len(w.A.Responses()) == 0 {
		return fmt.Errorf("harness: no call was made")
	}
	for i, r := range w.A.Responses() {
		b, _ := json.Marshal(r.Resp)
		if strings.Contains(string(b), adapter.Secret) {
			return fmt.Errorf("the secret appears in response %d (%s): %s", i+1, r.Op, clip(string(b), adapter.Secret))
		}
	}
	if w.A.Proc() != nil {
		time.Sleep(100 * time.Millisecond) // stderr is read on its own pipe: let it catch up
		if s := w.A.Proc().StderrSince(w.A.StderrMark()); strings.Contains(s, adapter.Secret) {
			return fmt.Errorf("the secret appears in the adapter's stderr: %s", clip(s, adapter.Secret))
		}
	}
	return nil
}

// clip is the text around the first occurrence of what, for a message.
func clip(s, what string) string {
	i := strings.Index(s, what)
	lo, hi := max(0, i-120), min(len(s), i+len(what)+120)
	return "…" + s[lo:hi] + "…"
}

func (w *World) statusExactly(list string) error {
	r, err := common.OKResult(w.A)
	if err != nil {
		return err
	}
	status, _ := r["status"].(map[string]any)
	want := common.SplitList(list)
	sort.Strings(want)
	got := common.KeysOf(status)
	sort.Strings(got)
	if d := kernel.DiffOf(want, got, cmpopts.EquateEmpty()); d != nil {
		return fmt.Errorf("the status's servers differ (-want +got):\n%w\nstatus: %s", d, common.CompactJSON(status))
	}
	return nil
}

func (w *World) stdioStarted(name string) error {
	path, ok := w.mcp().PIDFiles[name]
	if !ok {
		return fmt.Errorf("harness: %q is not a stdio server of this scenario", name)
	}
	if _, err := common.ReadPID(path); err != nil {
		return fmt.Errorf("the stdio server of %q never started (no PID file)", name)
	}
	return nil
}

// cancelledLoadForScan is a cancelled load whose outcome does not matter, only what it
// reports. A port that does not honour the cancel gives nothing to scan: cut at the hang
// guard (the scenario pins no bound), seconds past anything load explains, the scan is
// blocked by g3-cancel-hung-server, which judges that cancel (G3.1): a failure naming it,
// final, never a second verdict on the same fault. Cut at a bound it declares, it is timing.
func (w *World) cancelledLoadForScan(ms int) error {
	err := w.MCPActionArgs("loaded", map[string]any{"cancelAfterMs": ms})
	if err != nil && w.A.CutAtBound() {
		why := fmt.Sprintf("the load cancelled after %d ms never returned, so there is nothing to scan: %v", ms, err)
		if d := w.A.Declared(); d.Within == 0 && d.WithinLimit == 0 && d.WithinTimeout == 0 {
			return &kernel.Blocked{By: "g3-cancel-hung-server", Why: why}
		}
		return &kernel.Inconclusive{Why: why}
	}
	return err
}

// deepPath is where an {{http-deep:…}} fake serves MCP: not /mcp, and deeper than one segment,
// so a client that replaces or trims the configured URL's path reaches nothing.
const deepPath = "/team/a/mcp-v2"

// requestsAtConfiguredPath proves the connection the scenario speaks of, on the configured
// URL: the fake got requests, every one at the path its URL names (a client that swaps the
// path for its own default reaches nothing there, and is seen trying elsewhere).
func (w *World) requestsAtConfiguredPath(name string) error {
	s, ok := w.mcp().HTTP[name]
	if !ok {
		return fmt.Errorf("harness: %q is not an HTTP fake of this scenario", name)
	}
	u, err := url.Parse(s.URL())
	if err != nil {
		return fmt.Errorf("harness: %q's URL: %w", name, err)
	}
	reqs := s.Requests()
	if len(reqs) == 0 {
		return fmt.Errorf("the fake %q got no request at all (configured URL %s)", name, s.URL())
	}
	var elsewhere []string
	for _, r := range reqs {
		if r.Path != u.EscapedPath() {
			elsewhere = append(elsewhere, r.Method+" "+r.Path)
		}
	}
	if len(elsewhere) > 0 {
		return fmt.Errorf("the fake %q is configured at %s, but %d of %d requests went elsewhere: %s",
			name, u.EscapedPath(), len(elsewhere), len(reqs), strings.Join(common.Dedup(elsewhere), ", "))
	}
	return nil
}
