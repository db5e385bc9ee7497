package llm

import (
	"fmt"

	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

// State is what the scenario's client installs for request shaping: the body transform's
// edits and the BeforeLLM hook's override (nil: none installed). The client, the fake LLM's
// route and the runs' results are the client area's.
type State struct {
	transform map[string]any
	hook      map[string]any
}

func (s *State) Init(*kernel.Attempt) {}

// slotBodyTransform applies the scenario's body transform (applyTransform).
func slotBodyTransform(a *kernel.Attempt, args map[string]any) adapter.Answer {
	l := kernel.Get[State](a)
	if l.transform == nil {
		return notInstalled("bodyTransform")
	}
	body, _ := args["body"].(map[string]any)
	if null, _ := l.transform["returnNull"].(bool); null {
		return adapter.Answer{Value: nil}
	}
	inPlace, _ := l.transform["inPlace"].(bool)
	return adapter.Answer{Value: applyTransform(l.transform, body), InPlace: inPlace}
}

// slotBeforeLLM answers the BeforeLLM hook with the scenario's override.
func slotBeforeLLM(a *kernel.Attempt, args map[string]any) adapter.Answer {
	l := kernel.Get[State](a)
	if l.hook == nil {
		return notInstalled("beforeLLM")
	}
	msgs, _ := args["messages"].([]any)
	if keep, ok := l.hook["keepTools"].(map[string]any); ok && fmt.Sprint(args["turn"]) == fmt.Sprint(keep["turn"]) {
		return adapter.Answer{Value: map[string]any{"tools": toolsNamed(args["tools"], keep["name"])}}
	}
	if only, ok := l.hook["onTurn"]; ok && fmt.Sprint(args["turn"]) != fmt.Sprint(only) {
		return adapter.Answer{Value: nil} // a hook that acts on one turn returns nothing on the others
	}
	return adapter.Answer{Value: hookOverride(l.hook, msgs)}
}

// toolsNamed are the tool definitions the hook was given whose name is name, in either
// style's shape ({function: {name}} or {name}).
func toolsNamed(tools any, name any) []any {
	out := []any{}
	list, _ := tools.([]any)
	for _, t := range list {
		m, _ := t.(map[string]any)
		n := m["name"]
		if f, ok := m["function"].(map[string]any); ok {
			n = f["name"]
		}
		if n == name {
			out = append(out, t)
		}
	}
	return out
}

func notInstalled(fn string) adapter.Answer {
	return adapter.Answer{Error: fmt.Sprintf("runner: the scenario installed no %s host function", fn)}
}

// hookOverride is the BeforeLLM override: the messages with the last user message's content
// replaced (setLastUserContent), and the tools given (present, e.g. [], means override).
func hookOverride(spec map[string]any, msgs []any) any {
	out := map[string]any{}
	if content, ok := spec["setLastUserContent"].(string); ok {
		edited := common.DeepCopy(msgs).([]any)
		for i := len(edited) - 1; i >= 0; i-- {
			if m, _ := edited[i].(map[string]any); m["role"] == "user" {
				m["content"] = content
				break
			}
		}
		out["messages"] = edited
	}
	if tools, ok := spec["tools"]; ok {
		out["tools"] = tools
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
