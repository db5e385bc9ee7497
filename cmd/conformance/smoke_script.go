package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	llmfake "github.com/muthuishere/toolnexus-conformance/fakes/llm"
	mcpfake "github.com/muthuishere/toolnexus-conformance/fakes/mcp"
	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/schema"
)

// smoke is one adapter's smoke run: its hello, the fakes its requests point at, how each slot
// is answered now, what the slots saw, and a line per op, slot and check.
type smoke struct {
	ctx        context.Context
	proc       *adapter.Process
	proto      *schema.Protocol
	hello      map[string]any
	ops, slots []string
	llm        *llmfake.Server
	route      *llmfake.Route // what "$llm" is now
	mcpURL     string
	tmp        string
	answer     map[string]string // slot -> "edit" or "raise"; absent: its smoke block's return
	saw        map[string]int    // slot -> calls in the whole run
	calls      map[string]int    // slot -> calls within the request in flight
	broke      string            // the request the adapter broke on ("": it has not)
	lines      []smokeLine
}

// Line states: red first in the report, then green, then what was not smoked.
const (
	stFail        = "FAIL"
	stOK          = "ok"
	stUnsupported = "unsupported"
	stSkipped     = "skipped"
)

type smokeLine struct {
	state string
	text  string
}

func (s *smoke) line(state, format string, a ...any) {
	s.lines = append(s.lines, smokeLine{state, fmt.Sprintf(format, a...)})
}

// check is a line that is green or red.
func (s *smoke) check(ok bool, format string, a ...any) bool {
	s.line(map[bool]string{true: stOK, false: stFail}[ok], format, a...)
	return ok
}

func (s *smoke) title(name string) string {
	if s.hello == nil {
		return name
	}
	return fmt.Sprintf("%s: %v %v on %v", name, s.hello["library"], s.hello["version"], s.hello["runtime"])
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
	s.answer, s.saw, s.calls = map[string]string{}, map[string]int{}, map[string]int{}
	if s.llm, err = llmfake.Start(); err != nil {
		s.check(false, "harness: the fake LLM would not start: %v", err)
		return
	}
	defer s.llm.Close()
	mcpSrv, err := mcpfake.StartStreamable()
	if err != nil {
		s.check(false, "harness: the fake MCP server would not start: %v", err)
		return
	}
	defer mcpSrv.Close()
	s.mcpURL = mcpSrv.URL()
	if s.tmp, err = os.MkdirTemp("", "smoke-"); err != nil {
		s.check(false, "harness: no scratch directory: %v", err)
		return
	}
	defer os.RemoveAll(s.tmp)
	s.route = s.llm.NewRoute()
	s.walkOps()
	s.walkSlots()
	s.relay()
	if s.broke == "" {
		r, err = s.proc.Call(s.ctx, "shutdown", map[string]any{})
		s.check(err == nil && r.OK, "shutdown answered (%v)", errOr(err, r))
	}
}

// send makes one request and judges the adapter's answer: ok, a library error relayed with
// its type (green: the adapter did its job), the adapter's unsupported, or red (no answer in
// time, a malformed line, a crash, an error the adapter made up). detail says which.
func (s *smoke) send(op string, args map[string]any, replies []json.RawMessage) (state, detail string, r *adapter.Response) {
	if !slices.Contains(s.ops, op) {
		return stUnsupported, "hello does not list " + op, nil
	}
	if s.broke != "" {
		return stSkipped, "the adapter broke on " + s.broke + " (see above)", nil
	}
	for _, slot := range s.proto.SlotsNeeded(op, args) {
		if !slices.Contains(s.slots, slot) {
			return stUnsupported, fmt.Sprintf("%s needs slot %s, which hello does not list", op, slot), nil
		}
	}
	line, _ := json.Marshal(map[string]any{"id": 1, "op": op, "args": args})
	if err := s.proto.ValidateRequest(line); err != nil {
		return stFail, fmt.Sprintf("smoke data: the %s request breaks the protocol schema: %v", op, err), nil
	}
	for _, raw := range replies {
		var reply llmfake.Reply
		if err := json.Unmarshal(raw, &reply); err != nil {
			return stFail, fmt.Sprintf("smoke data: a fake LLM reply for %s: %v", op, err), nil
		}
		s.route.Script(reply)
	}
	clear(s.calls)
	r, err := s.proc.CallHost(s.ctx, op, args, s.host)
	switch {
	case err != nil:
		// A timeout, a malformed line or an exit ends the process: what follows is not sent.
		s.broke = op
		return stFail, err.Error(), nil
	case len(r.Crashes) > 0:
		return stFail, "the library crashed outside the call's result: " + strings.Join(r.Crashes, "; "), r
	case r.OK:
		return stOK, "", r
	case r.Error.Type != "":
		return stOK, fmt.Sprintf("relayed %s", r.Error.Type), r
	case r.Error.Kind == "unsupported":
		return stUnsupported, "the adapter answered unsupported: " + r.Error.Message, r
	}
	return stFail, fmt.Sprintf("an error with no relayed type (%s): %s", r.Error.Kind, r.Error.Message), r
}

// host answers the adapter's slot calls from the slots' smoke blocks: their return value
// (ReturnAfter for a later call within one request), or, for the slot being smoked, an edit
// of the argument its block names or a raise.
func (s *smoke) host(fn string, raw json.RawMessage) adapter.Answer {
	s.saw[fn]++
	s.calls[fn]++
	sm, _ := s.proto.SmokeSlot(fn)
	switch s.answer[fn] {
	case "raise":
		return adapter.Answer{Error: "smoke: refused"}
	case "edit":
		var args map[string]any
		_ = json.Unmarshal(raw, &args)
		v, _ := args[sm.Edit.Arg].(map[string]any)
		if v == nil {
			v = map[string]any{}
		}
		maps.Copy(v, sm.Edit.Set)
		return adapter.Answer{Value: v, InPlace: true}
	}
	if s.calls[fn] > 1 && len(sm.ReturnAfter) > 0 {
		var v any
		_ = json.Unmarshal(sm.ReturnAfter, &v)
		return adapter.Answer{Value: v}
	}
	return adapter.Answer{Value: sm.Return}
}

// relay: an unknown handle is an error, not a dead adapter; what the library raises (an HTTP
// 400) comes back relayed with its type.
func (s *smoke) relay() {
	if s.broke != "" {
		s.line(stSkipped, "unknown handle, error relay and shutdown: not checked, the adapter broke on %s", s.broke)
		return
	}
	if slices.Contains(s.ops, "toolkit.describe") {
		r, err := s.proc.Call(s.ctx, "toolkit.describe", map[string]any{"toolkit": "smoke_missing"})
		s.check(err == nil && !r.OK, "an unknown handle is an error, and the adapter lives on (%v)", errOr(err, r))
	}
	if !slices.Contains(s.ops, "client.create") || !slices.Contains(s.ops, "client.run") {
		return
	}
	s.route = s.llm.NewRoute()
	args := s.resolve(map[string]any{"handle": "$bad", "baseUrl": "$llm", "style": "openai", "model": "m", "apiKey": "k"}, "smoke_relay_")
	if st, d, _ := s.send("client.create", args.(map[string]any), nil); st != stOK {
		s.line(st, "error relay not checked: client.create: %s", d)
		return
	}
	s.route.Script(llmfake.Reply{Status: 400, Text: "smoke: bad request"})
	r, err := s.proc.CallHost(s.ctx, "client.run", map[string]any{"client": "smoke_relay_bad", "prompt": "hi"}, s.host)
	// The adapter's own answers carry no type: a type says the library's error was relayed.
	relayed := err == nil && !r.OK && r.Error.Type != "" && r.Error.Message != ""
	s.check(relayed, "a library error (an HTTP 400) is relayed with its type and message (%v)", errOr(err, r))
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
