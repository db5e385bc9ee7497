package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	llmfake "github.com/muthuishere/toolnexus-conformance/fakes/llm"
	mcpfake "github.com/muthuishere/toolnexus-conformance/fakes/mcp"
	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/schema"
)

// smoke is one adapter's smoke run: what it said hello with, how the slots are answered now,
// what they saw, and a line per check.
type smoke struct {
	ctx         context.Context
	proc        *adapter.Process
	proto       *schema.Protocol
	hello       map[string]any
	ops, slots  []string
	answer      map[string]string // slot -> "return", "edit" or "raise"
	saw         map[string]int    // slot -> calls
	lines       []smokeLine
	notDeclared []string
}

type smokeLine struct {
	ok   bool
	text string
}

func (s *smoke) check(ok bool, format string, a ...any) bool {
	s.lines = append(s.lines, smokeLine{ok, fmt.Sprintf(format, a...)})
	return ok
}

func (s *smoke) title(name string) string {
	if s.hello == nil {
		return name
	}
	return fmt.Sprintf("%s: %v %v on %v", name, s.hello["library"], s.hello["version"], s.hello["runtime"])
}

// host answers the adapter's slot calls as the current step asks: return a value, edit the
// argument in place, or raise.
func (s *smoke) host(fn string, raw json.RawMessage) adapter.Answer {
	s.saw[fn]++
	switch mode := s.answer[fn]; {
	case mode == "raise":
		return adapter.Answer{Error: "smoke: refused"}
	case mode == "edit" && fn == "llm.bodyTransform":
		var args struct{ Body map[string]any }
		_ = json.Unmarshal(raw, &args)
		args.Body["smoke_edit"] = true
		return adapter.Answer{Value: args.Body, InPlace: true}
	case fn == "contract.tool":
		return adapter.Answer{Value: "pong"}
	}
	return adapter.Answer{}
}

// call sends one op the adapter declared; nil (and a note) when it did not declare it. A
// response carrying crashes fails the check it belongs to.
func (s *smoke) call(op string, args map[string]any) *adapter.Response {
	if !slices.Contains(s.ops, op) {
		if !slices.Contains(s.notDeclared, op) {
			s.notDeclared = append(s.notDeclared, op)
		}
		return nil
	}
	r, err := s.proc.CallHost(s.ctx, op, args, s.host)
	if err != nil {
		s.check(false, "%s: %v", op, err)
		return nil
	}
	if len(r.Crashes) > 0 {
		s.check(false, "%s: the library crashed outside the call's result: %s", op, strings.Join(r.Crashes, "; "))
	}
	return r
}

// okCall is call for a step that must succeed on a working port.
func (s *smoke) okCall(op string, args map[string]any) map[string]any {
	r := s.call(op, args)
	if r == nil {
		return nil
	}
	if !s.check(r.OK, "%s answered%s", op, map[bool]string{true: "", false: ": " + errOr(nil, r)}[r.OK]) {
		return nil
	}
	return r.Result
}

func (s *smoke) run() {
	r, err := s.proc.Call(s.ctx, "hello", nil)
	if !s.check(err == nil && r.OK, "hello answered (%v)", errOr(err, r)) {
		return
	}
	s.hello = r.Result
	s.ops, s.slots = adapter.HelloNames(r.Result, "ops"), adapter.HelloNames(r.Result, "slots")
	unknownOps := slices.DeleteFunc(slices.Clone(s.ops), func(o string) bool {
		return o == "hello" || o == "shutdown" || slices.Contains(s.proto.Ops(), o)
	})
	unknownSlots := slices.DeleteFunc(slices.Clone(s.slots), func(o string) bool { return slices.Contains(s.proto.Slots(), o) })
	s.check(len(unknownOps) == 0 && len(unknownSlots) == 0, "hello lists %d ops and %d slots, all in the protocol (unknown: %v %v)",
		len(s.ops), len(s.slots), unknownOps, unknownSlots)
	s.answer, s.saw = map[string]string{}, map[string]int{}
	fake, err := llmfake.Start()
	if err != nil {
		s.check(false, "harness: the fake LLM would not start: %v", err)
		return
	}
	defer fake.Close()
	mcpSrv, err := mcpfake.StartStreamable()
	if err != nil {
		s.check(false, "harness: the fake MCP server would not start: %v", err)
		return
	}
	defer mcpSrv.Close()
	s.tools()
	s.client(fake.NewRoute())
	s.mcp(mcpSrv.URL())
	s.relay(fake.NewRoute())
	if len(s.notDeclared) > 0 {
		s.check(true, "not declared by this adapter (its scenarios are unsupported): %s", strings.Join(s.notDeclared, ", "))
	}
	r, err = s.proc.Call(s.ctx, "shutdown", map[string]any{})
	s.check(err == nil && r.OK, "shutdown answered (%v)", errOr(err, r))
}

// tools: a toolkit with a host tool, described and executed with a returned and a raised
// answer, the schema adapters and sanitize.
func (s *smoke) tools() {
	if v := s.okCall("sanitize", map[string]any{"value": "a b"}); v != nil {
		s.check(v["value"] == "a_b", "sanitize maps a space to _ (got %v)", v["value"])
	}
	echo := map[string]any{"name": "echo", "description": "echo", "inputSchema": map[string]any{"type": "object"}}
	if s.okCall("toolkit.create", map[string]any{"handle": "smoke_t", "extraTools": []any{echo}}) == nil {
		return
	}
	if d := s.okCall("toolkit.describe", map[string]any{"toolkit": "smoke_t"}); d != nil {
		s.check(strings.Contains(fmt.Sprint(d["tools"]), "echo"), "toolkit.describe lists the host tool")
	}
	if slices.Contains(s.slots, "contract.tool") {
		before := s.saw["contract.tool"]
		if x := s.okCall("tool.execute", map[string]any{"toolkit": "smoke_t", "name": "echo", "args": map[string]any{}}); x != nil {
			s.check(x["output"] == "pong" && s.saw["contract.tool"] == before+1, "contract.tool: a returned value is the tool's output (got %v)", x["output"])
		}
		s.answer["contract.tool"] = "raise"
		if r := s.call("tool.execute", map[string]any{"toolkit": "smoke_t", "name": "echo", "args": map[string]any{}}); r != nil {
			b, _ := json.Marshal(r)
			s.check(strings.Contains(string(b), "smoke: refused"), "contract.tool: a raise comes back with its message")
		}
		delete(s.answer, "contract.tool")
	}
	s.okCall("adapters", map[string]any{"toolkit": "smoke_t"})
}

// client: a client with every host function the adapter declares, a run that calls the host
// tool (the body transform answered with an edit), an ask, and the store.
func (s *smoke) client(route *llmfake.Route) {
	args := map[string]any{"handle": "smoke_c", "baseUrl": route.BaseURL(), "style": "openai", "model": "m", "apiKey": "k"}
	for key, v := range map[string]any{"bodyTransform": true, "beforeLLM": true, "httpClient": "recording", "store": "host"} {
		with := map[string]any{key: v}
		if key == "store" && !slices.Contains(s.ops, "store.get") {
			continue
		}
		if need := s.proto.SlotsNeeded("client.create", with); len(need) > 0 && !slices.Contains(s.slots, need[0]) {
			continue
		}
		args[key] = v
	}
	if s.okCall("client.create", args) == nil {
		return
	}
	route.Script(llmfake.Reply{ToolCalls: []llmfake.ToolCall{{Name: "echo"}}}, llmfake.Reply{Text: "done"})
	s.answer["llm.bodyTransform"] = "edit"
	run := s.okCall("client.run", map[string]any{"client": "smoke_c", "toolkit": "smoke_t", "prompt": "hi"})
	delete(s.answer, "llm.bodyTransform")
	if run != nil {
		s.check(run["text"] == "done", "client.run: the run ends with the model's text (got %v)", run["text"])
		for _, slot := range s.slots {
			if slot != "llm.bodyTransform" && slot != "llm.beforeLLM" && slot != "transport.http" && slot != "contract.tool" {
				continue
			}
			s.check(s.saw[slot] > 0, "%s: called back during the run (%d calls)", slot, s.saw[slot])
		}
		if slices.Contains(s.slots, "llm.bodyTransform") {
			edited := false
			for _, q := range route.Requests() {
				edited = edited || q.Body["smoke_edit"] == true
			}
			s.check(edited, "llm.bodyTransform: an edit answer is what reaches the wire")
		}
	}
	s.okCall("client.ask", map[string]any{"client": "smoke_c", "prompt": "again", "id": "smoke"})
	msgs := []any{map[string]any{"role": "user", "content": "x"}}
	s.okCall("store.save", map[string]any{"client": "smoke_c", "id": "smoke2", "messages": msgs})
	if g := s.okCall("store.get", map[string]any{"client": "smoke_c", "id": "smoke2"}); g != nil {
		s.check(g["messages"] != nil, "store.get returns what store.save saved")
	}
	s.okCall("store.identity", map[string]any{"client": "smoke_c"})
}

// mcp: a list and a load of one fake server.
func (s *smoke) mcp(url string) {
	cfg := map[string]any{"inline": map[string]any{"mcpServers": map[string]any{"fake": map[string]any{"url": url}}}}
	s.okCall("mcp.list", map[string]any{"mcpConfig": cfg})
	s.okCall("mcp.load", map[string]any{"mcpConfig": cfg})
}

// relay: what the library raises comes back relayed, and an unknown handle is an error,
// not a dead adapter.
func (s *smoke) relay(route *llmfake.Route) {
	if r := s.call("toolkit.describe", map[string]any{"toolkit": "smoke_missing"}); r != nil {
		s.check(!r.OK, "an unknown handle is an error, and the adapter lives on")
	}
	if s.okCall("client.create", map[string]any{"handle": "smoke_bad", "baseUrl": route.BaseURL(), "style": "openai", "model": "m", "apiKey": "k"}) == nil {
		return
	}
	route.Script(llmfake.Reply{Status: 400, Text: "smoke: bad request"})
	if r := s.call("client.run", map[string]any{"client": "smoke_bad", "prompt": "hi"}); r != nil {
		// The adapter's own answers carry no type: a type says the library's error was relayed.
		relayed := !r.OK && r.Error.Type != "" && r.Error.Message != ""
		s.check(relayed, "a library error (an HTTP 400) is relayed with its type and message (%v)", errOr(nil, r))
	}
	s.okCall("toolkit.close", map[string]any{"toolkit": "smoke_t"})
}

func errOr(err error, r *adapter.Response) string {
	switch {
	case err != nil:
		return err.Error()
	case r == nil:
		return "no response"
	case r.OK:
		return "ok"
	}
	return fmt.Sprintf("error: %s %s", r.Error.Type, r.Error.Message)
}
