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
	// guards are other areas' answers for a tool before it runs (the suspension area's
	// guard-raised suspension): each says whether it answers for the tool, and with what.
	guards []Guard
}

// Guard answers beforeTool for a tool it knows ({result: …}); ok false: not this tool.
type Guard func(tool string) (answer map[string]any, ok bool)

func (s *State) Init(*kernel.Attempt) {
	s.deny, s.rewrite, s.replace = map[string]string{}, map[string]map[string]any{}, map[string]string{}
	s.denyAsError = map[string]bool{}
}

// AddGuard lets another area answer beforeTool for the tools it knows, after the scenario's
// own denials; the guard's state stays that area's. It installs the beforeTool hook.
func AddGuard(a *kernel.Attempt, g Guard) error {
	s := kernel.Get[State](a)
	s.guards = append(s.guards, g)
	return kernel.SetOption(a, "client.create", "beforeTool", true)
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
	for _, g := range s.guards {
		if answer, ok := g(name); ok {
			return adapter.Answer{Value: answer}
		}
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
