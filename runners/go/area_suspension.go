package main

import (
	"encoding/json"

	toolnexus "github.com/muthuishere/toolnexus/golang"
)

// The suspension area (§10): a WaitFor calling back suspension.waitFor, and tool literals
// whose execute calls back suspension.tool and returns what the runner answered, a
// suspension in §10's documented shape (isError, metadata.pending = the port's Request) or
// a plain result.

const (
	slotWaitFor     = "suspension.waitFor"
	slotSuspendTool = "suspension.tool"
)

// suspendingTool is one toolkit.create suspendingTools entry.
type suspendingTool struct {
	Name, Description string
	InputSchema       map[string]any
}

// installWaitFor sets the WaitFor client.create asked for: the request goes out in its JSON
// tags (§10's keys), the answer comes back as the port's Answer.
func (h *host) installWaitFor(client string, x args, opts *toolnexus.ClientOptions) {
	if !x.WaitFor {
		return
	}
	opts.WaitFor = func(req toolnexus.Request) (toolnexus.Answer, error) {
		var ans toolnexus.Answer
		_, err := h.call(slotWaitFor, map[string]any{"client": client, "request": req}, &ans)
		return ans, err
	}
}

// suspendingTool is a Tool literal: it relays the input and the context's answer, and
// returns a suspension when the runner answers {pending}.
func (h *host) suspendingTool(toolkit string, st suspendingTool) toolnexus.Tool {
	return toolnexus.Tool{Name: st.Name, Description: st.Description, InputSchema: st.InputSchema, Source: toolnexus.SourceCustom,
		Execute: func(input map[string]any, tc *toolnexus.ToolContext) (toolnexus.ToolResult, error) {
			args := map[string]any{"toolkit": toolkit, "name": st.Name, "input": input}
			if tc != nil && tc.Answer != nil {
				args["answer"] = tc.Answer
			}
			var ans struct {
				Pending *toolnexus.Request
				Output  string
				IsError bool
			}
			if _, err := h.call(slotSuspendTool, args, &ans); err != nil {
				return toolnexus.ToolResult{}, err
			}
			if ans.Pending != nil {
				return toolnexus.ToolResult{Output: ans.Output, IsError: true, Metadata: map[string]any{"pending": *ans.Pending}}, nil
			}
			return toolnexus.ToolResult{Output: ans.Output, IsError: ans.IsError}, nil
		}}
}

// pendingOverride is a beforeTool answer's pending Request, as the port's type.
func pendingOverride(raw json.RawMessage) (map[string]any, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var req toolnexus.Request
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, adapterErr("failed", "adapter: beforeTool pending: "+err.Error())
	}
	return map[string]any{"pending": req}, nil
}
