package main

import (
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

var suspensionArea = registerArea(area{name: "suspension", slots: []string{slotWaitFor, slotSuspendTool},
	clientOptions: optionOf(installWaitFor), toolkitOptions: optionOf(addSuspendingTools)})

// waitForArgs is client.create's waitFor flag.
type waitForArgs struct{ WaitFor bool }

// installWaitFor sets the WaitFor client.create asked for: the request goes out in its JSON
// tags (§10's keys), the answer comes back as the port's Answer.
func installWaitFor(k *kit, client string, x waitForArgs, opts *toolnexus.ClientOptions) error {
	if !x.WaitFor {
		return nil
	}
	h := k.host
	opts.WaitFor = func(req toolnexus.Request) (toolnexus.Answer, error) {
		var ans toolnexus.Answer
		_, err := h.call(slotWaitFor, map[string]any{"client": client, "request": req}, &ans)
		return ans, err
	}
	return nil
}

// suspendingArgs are toolkit.create's suspending tools.
type suspendingArgs struct {
	SuspendingTools []suspendingTool
}

type suspendingTool struct {
	Name, Description string
	InputSchema       map[string]any
}

// addSuspendingTools appends them after the toolkit's own extra tools.
func addSuspendingTools(k *kit, toolkit string, x suspendingArgs, opts *toolnexus.Options) error {
	for _, st := range x.SuspendingTools {
		opts.ExtraTools = append(opts.ExtraTools, suspendingToolOf(k.host, toolkit, st))
	}
	return nil
}

// suspendingToolOf is a Tool literal: it relays the input and the context's answer, and
// returns a suspension when the runner answers {pending}.
func suspendingToolOf(h *host, toolkit string, st suspendingTool) toolnexus.Tool {
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
