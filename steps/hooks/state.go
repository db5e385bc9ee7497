package hooks

import (
	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
)

// State is what the scenario's tool hooks do, per tool name: answer for the tool (deny),
// rewrite its arguments, or replace its output. What every hook saw is the kernel's record
// of the slot calls.
type State struct {
	deny map[string]string
	// denyAsError flags a denied tool's answer isError true.
	denyAsError map[string]bool
	rewrite     map[string]map[string]any
	replace     map[string]string
	suspend     map[string]map[string]any // tool -> the Request a guard-raised suspension carries (§10)
}

func (s *State) Init(*kernel.Attempt) {
	s.deny, s.rewrite, s.replace = map[string]string{}, map[string]map[string]any{}, map[string]string{}
	s.suspend, s.denyAsError = map[string]map[string]any{}, map[string]bool{}
}

// Suspend makes beforeTool answer for tool with a suspension carrying req, whose output is
// the request's prompt (the suspension area's steps).
func Suspend(a *kernel.Attempt, tool string, req map[string]any) {
	kernel.Get[State](a).suspend[tool] = req
}

// slotAfterLLM observes: the record is the kernel's.
func slotAfterLLM(*kernel.Attempt, map[string]any) adapter.Answer { return adapter.Answer{Value: nil} }

// slotBeforeTool answers {result} for a denied tool, {args} for a rewritten one, else null.
func slotBeforeTool(a *kernel.Attempt, args map[string]any) adapter.Answer {
	s := kernel.Get[State](a)
	name, _ := args["name"].(string)
	if text, ok := s.deny[name]; ok {
		return adapter.Answer{Value: map[string]any{"result": map[string]any{"output": text, "isError": s.denyAsError[name]}}}
	}
	if req, ok := s.suspend[name]; ok {
		return adapter.Answer{Value: map[string]any{"result": map[string]any{"output": req["prompt"], "isError": true, "pending": req}}}
	}
	if rw, ok := s.rewrite[name]; ok {
		return adapter.Answer{Value: map[string]any{"args": rw}}
	}
	return adapter.Answer{Value: nil}
}

// slotAfterTool answers {result} for a tool whose output the scenario replaces, else null.
func slotAfterTool(a *kernel.Attempt, args map[string]any) adapter.Answer {
	s := kernel.Get[State](a)
	name, _ := args["name"].(string)
	if text, ok := s.replace[name]; ok {
		return adapter.Answer{Value: map[string]any{"result": map[string]any{"output": text, "isError": false}}}
	}
	return adapter.Answer{Value: nil}
}
