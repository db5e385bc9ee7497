package suspension

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
)

// State is the scenario's suspending tools and what its waitFor answers.
type State struct {
	mu     sync.Mutex
	tools  map[string]*suspender
	order  []string       // the suspending tools, in the order the scenario declared them
	answer map[string]any // waitFor's answer to every request; its id echoes the request's
	// guarded are the tools the beforeTool hook suspends, each with the Request its
	// suspension carries (upstream SPEC §10's guard); the hooks area asks guard.
	guarded map[string]map[string]any
}

// guard is the beforeTool answer for a guarded tool: an error result whose output is the
// request's prompt and which carries the request as pending.
func (s *State) guard(tool string) (map[string]any, bool) {
	s.mu.Lock()
	req, ok := s.guarded[tool]
	s.mu.Unlock()
	if !ok {
		return nil, false
	}
	return map[string]any{"result": map[string]any{"output": req["prompt"], "isError": true, "pending": req}}, true
}

// suspender is one suspending tool: the Request it suspends with and that suspension's
// output (distinct strings, so a reader can tell which one a transcript kept), and what a
// run with an answer does: suspend again, or answer "resumed: <answer.data as JSON>".
type suspender struct {
	request map[string]any
	output  string
	again   bool
	delay   time.Duration
	// againPrompt, when set, is the prompt of the retry's own suspension (its Request is
	// the first one's with that prompt), so a reader can tell which prompt a text kept.
	againPrompt string
	// resumedError, when set, is what a run with an answer returns: an error result.
	resumedError string
}

func (s *State) Init(*kernel.Attempt) { s.tools = map[string]*suspender{} }

// slotTool is a suspending tool's execute: a first call suspends; a call carrying an answer
// resumes, or suspends again when the scenario says so.
func slotTool(a *kernel.Attempt, args map[string]any) adapter.Answer {
	s := kernel.Get[State](a)
	name, _ := args["name"].(string)
	s.mu.Lock()
	t := s.tools[name]
	s.mu.Unlock()
	if t == nil {
		return adapter.Answer{Error: fmt.Sprintf("runner: no suspending tool %q in this scenario", name)}
	}
	time.Sleep(t.delay) // a slow suspension (C14.6): the runner answers late, on purpose
	answer, _ := args["answer"].(map[string]any)
	if answer == nil {
		return adapter.Answer{Value: map[string]any{"pending": t.request, "output": t.output}}
	}
	if t.again {
		req := t.request
		if t.againPrompt != "" {
			req = map[string]any{}
			for k, v := range t.request {
				req[k] = v
			}
			req["prompt"] = t.againPrompt
		}
		return adapter.Answer{Value: map[string]any{"pending": req, "output": t.output}}
	}
	if t.resumedError != "" {
		return adapter.Answer{Value: map[string]any{"output": t.resumedError, "isError": true}}
	}
	data, err := json.Marshal(answer["data"])
	if err != nil {
		return adapter.Answer{Error: "runner: " + err.Error()}
	}
	return adapter.Answer{Value: map[string]any{"output": "resumed: " + string(data)}}
}

// slotWaitFor answers every request with the scenario's answer, its id the request's.
func slotWaitFor(a *kernel.Attempt, args map[string]any) adapter.Answer {
	s := kernel.Get[State](a)
	req, _ := args["request"].(map[string]any)
	if s.answer == nil || req == nil {
		return adapter.Answer{Error: fmt.Sprintf("runner: waitFor has no answer for %v", args["request"])}
	}
	out := map[string]any{"id": req["id"]}
	for k, v := range s.answer {
		out[k] = v
	}
	return adapter.Answer{Value: out}
}
