package contract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/common"

	"github.com/muthuishere/toolnexus-conformance/fakes/endpoint"
	"github.com/muthuishere/toolnexus-conformance/fakes/faults"
	llmfake "github.com/muthuishere/toolnexus-conformance/fakes/llm"
	mcpfake "github.com/muthuishere/toolnexus-conformance/fakes/mcp"
)

// Steps for MCP fakes that list a catalogue (contract C2-C5): awkward names, result shapes,
// schema variants, pages, the child's env; and what they recorded.
func registerContractMCPSteps(sc *kernel.Steps) {
	sc.Step(`^an MCP server "([^"]*)" over (stdio|streamable HTTP|SSE only) listing the (\w+) tools$`, (*World).catalogueServer)
	sc.Step(`^an MCP server "([^"]*)" over (stdio|streamable HTTP) listing the (\w+) tools, whose tools/list answers after (\d+) ms$`, (*World).catalogueServerListDelay)
	sc.Step(`^the fake "([^"]*)" received tools/call of "([^"]*)" with the arguments (.+)$`, (*World).fakeReceivedCall)
	sc.Step(`^the fake "([^"]*)" received tools/call of "([^"]*)" whose argument "([^"]*)" is written (\S+)$`, (*World).fakeReceivedNumberText)
	sc.Step(`^the fake LLM first calls the tool "([^"]*)" with the arguments (\{.*\}) and then answers "([^"]*)"$`, (*World).scriptToolArgsThenText)
	sc.Step(`^the fake "([^"]*)" received (\d+) tools/call requests?$`, (*World).fakeCallCount)
}

// httpCatalogue starts an HTTP fake with opts, registered under name.
func (w *World) httpCatalogue(name, transport string, opts mcpfake.HTTPOptions) (map[string]any, error) {
	start := mcpfake.StartStreamableWith
	if transport == "SSE only" {
		start = mcpfake.StartSSEWith
	}
	s, err := start(opts)
	if err != nil {
		return nil, fmt.Errorf("harness: fake MCP server %q: %w", name, err)
	}
	w.mcp().HTTP[name] = s
	w.mcp().AddCloser(s.Close)
	return map[string]any{"url": s.URL()}, nil
}

func (w *World) catalogueServer(name, transport, catalogue string) error {
	return w.catalogueServerListDelay(name, transport, catalogue, 0)
}

func (w *World) catalogueServerListDelay(name, transport, catalogue string, ms int) error {
	if !mcpfake.ValidCatalogue(catalogue) {
		return fmt.Errorf("harness: no catalogue %q (%s)", catalogue, strings.Join(mcpfake.Catalogues(), ", "))
	}
	delay := time.Duration(ms) * time.Millisecond
	if transport == "stdio" {
		extra := []string{"--catalogue", catalogue}
		if ms > 0 {
			extra = append(extra, "--list-delay", delay.String())
		}
		w.mcp().Servers[name] = w.StdioServer(name, extra...)
		w.mcp().Order = append(w.mcp().Order, name)
		return nil
	}
	cfg, err := w.httpCatalogue(name, transport, mcpfake.HTTPOptions{ServerOptions: mcpfake.ServerOptions{Catalogue: catalogue, ListDelay: delay}})
	if err != nil {
		return err
	}
	w.mcp().Servers[name] = cfg
	w.mcp().Order = append(w.mcp().Order, name)
	return nil
}

// calls is what an echo-style tool of the fake answered, from the execute results and the
// run reports of this scenario: each EchoOutput the fake produced for name.
func (w *World) echoes(server, tool string) ([]map[string]json.RawMessage, error) {
	var outs []string
	for _, r := range w.A.Responses() {
		if !r.Resp.OK {
			continue
		}
		if r.Op == "tool.execute" {
			if s, ok := r.Resp.Result["output"].(string); ok {
				outs = append(outs, s)
			}
		}
		if calls, ok := r.Resp.Result["calls"].([]any); ok {
			for _, c := range calls {
				if m, _ := c.(map[string]any); m != nil {
					if s, ok := m["output"].(string); ok {
						outs = append(outs, s)
					}
				}
			}
		}
	}
	var got []map[string]json.RawMessage
	for _, o := range outs {
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(o), &m) != nil {
			continue
		}
		var n string
		if json.Unmarshal(m["name"], &n) == nil && n == tool {
			got = append(got, m)
		}
	}
	if len(got) == 0 {
		return nil, fmt.Errorf("the fake %q answered no tools/call of %q in this scenario (outputs seen: %s)", server, tool, common.CompactJSON(outs))
	}
	return got, nil
}

// fakeReceivedCall checks the arguments the fake echoed back, decoded (key order and
// spacing do not count; numbers are compared as written).
func (w *World) fakeReceivedCall(server, tool, raw string) error {
	got, err := w.echoes(server, tool)
	if err != nil {
		return err
	}
	args, ok := got[len(got)-1]["arguments"]
	if !ok {
		return fmt.Errorf("the fake %q received tools/call of %q with no arguments key; want %s", server, tool, raw)
	}
	var v any
	dec := json.NewDecoder(strings.NewReader(string(args)))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("the fake %q received arguments that are not JSON: %s", server, args)
	}
	return common.SameJSON(fmt.Sprintf("the arguments the fake %q received for %q", server, tool), raw, v)
}

// fakeReceivedNumberText checks one argument's JSON text as the fake received it: the pin of
// C4.9 is the big integer's digits, not how a port writes the other numbers beside it.
func (w *World) fakeReceivedNumberText(server, tool, key, want string) error {
	got, err := w.echoes(server, tool)
	if err != nil {
		return err
	}
	var args map[string]json.RawMessage
	if err := json.Unmarshal(got[len(got)-1]["arguments"], &args); err != nil {
		return fmt.Errorf("the fake %q received arguments that are not a JSON object: %s", server, got[len(got)-1]["arguments"])
	}
	text, ok := args[key]
	if !ok {
		return fmt.Errorf("the fake %q received tools/call of %q without the argument %q: %s", server, tool, key, common.CompactJSON(args))
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, text); err != nil || compact.String() != want {
		return fmt.Errorf("the fake %q received %q as %s; want %s (all arguments: %s)", server, key, text, want, common.CompactJSON(args))
	}
	return nil
}

func (w *World) fakeCallCount(server string, n int) error {
	s, ok := w.mcp().HTTP[server]
	if !ok {
		return fmt.Errorf("harness: %q is not an HTTP fake of this scenario", server)
	}
	calls := 0
	for _, r := range s.Requests() {
		for _, m := range r.RPCMethods {
			if m == "tools/call" {
				calls++
			}
		}
	}
	if calls != n {
		return fmt.Errorf("the fake %q received %d tools/call requests; want %d", server, calls, n)
	}
	return nil
}

// EndpointURL is endpointURL for the areas built on this one (the built-in webfetch).
func (w *World) EndpointURL(url string) (string, error) { return w.endpointURL(url) }

// endpointURL fills {{endpoint}} with this scenario's base URL on the HTTP endpoint fake.
func (w *World) endpointURL(url string) (string, error) {
	if strings.Contains(url, "{{closed}}") {
		closed, err := faults.ClosedPort()
		if err != nil {
			return "", fmt.Errorf("harness: closed port: %w", err)
		}
		url = strings.ReplaceAll(url, "{{closed}}", closed)
	}
	if !strings.Contains(url, "{{endpoint}}") {
		return url, nil
	}
	r, err := w.endpoint()
	if err != nil {
		return "", err
	}
	return strings.ReplaceAll(url, "{{endpoint}}", r.BaseURL()), nil
}

// endpoint is this scenario's route on an HTTP endpoint fake of its own, started on first use
// and closed with the scenario's other fakes.
func (w *World) endpoint() (*endpoint.Route, error) {
	if w.mcp().Endpoint != nil {
		return w.mcp().Endpoint, nil
	}
	s, err := endpoint.Start()
	if err != nil {
		return nil, fmt.Errorf("harness: HTTP endpoint fake: %w", err)
	}
	w.mcp().AddCloser(s.Close)
	w.mcp().Endpoint = s.NewRoute()
	return w.mcp().Endpoint, nil
}

// scriptToolArgsThenText scripts a tool call with arguments as written: numbers stay
// json.Number, so the fake sends 9007199254740993 and 1.0 as they are spelled.
func (w *World) scriptToolArgsThenText(tool, raw, text string) error {
	var args map[string]any
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&args); err != nil {
		return fmt.Errorf("harness: arguments %s are not a JSON object: %w", raw, err)
	}
	w.client().Route.Script(llmfake.Reply{ToolCalls: []llmfake.ToolCall{{Name: tool, Args: args}}}, llmfake.Reply{Text: text})
	return nil
}
