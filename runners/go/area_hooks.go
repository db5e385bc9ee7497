package main

import (
	"context"
	"encoding/json"

	toolnexus "github.com/muthuishere/toolnexus/golang"
)

// The hooks area: AfterLLM, BeforeTool and AfterTool stubs that call back hooks.* (the
// llm area installs BeforeLLM). Each relays what the library gave it and returns what the
// runner answered, as the port's override types.

const (
	slotAfterLLM   = "hooks.afterLLM"
	slotBeforeTool = "hooks.beforeTool"
	slotAfterTool  = "hooks.afterTool"
)

var hooksArea = registerArea(area{name: "hooks", slots: []string{slotAfterLLM, slotBeforeTool, slotAfterTool},
	clientOptions: optionOf(installHooks)})

// hookArgs are client.create's hook flags.
type hookArgs struct {
	AfterLLM, BeforeTool, AfterTool bool
}

// installHooks adds the hooks client.create asked for to opts, beside a BeforeLLM the llm
// area may have set.
func installHooks(k *kit, client string, x hookArgs, opts *toolnexus.ClientOptions) error {
	if !x.AfterLLM && !x.BeforeTool && !x.AfterTool {
		return nil
	}
	h := k.host
	if opts.Hooks == nil {
		opts.Hooks = &toolnexus.Hooks{}
	}
	if x.AfterLLM {
		opts.Hooks.AfterLLM = func(_ context.Context, ev toolnexus.AfterLLMEvent) error {
			_, err := h.call(slotAfterLLM, map[string]any{"client": client, "turn": ev.Turn, "model": ev.Model, "response": ev.Response}, nil)
			return err
		}
	}
	if x.BeforeTool {
		opts.Hooks.BeforeTool = func(_ context.Context, ev toolnexus.BeforeToolEvent) (*toolnexus.ToolOverride, error) {
			return toolOverride(h, slotBeforeTool, map[string]any{"client": client, "name": ev.Name, "args": ev.Args, "id": ev.ID, "turn": ev.Turn})
		}
	}
	if x.AfterTool {
		opts.Hooks.AfterTool = func(_ context.Context, ev toolnexus.AfterToolEvent) (*toolnexus.ToolOverride, error) {
			result := map[string]any{"output": ev.Result.Output, "isError": ev.Result.IsError}
			if ev.Result.Metadata != nil {
				result["metadata"] = ev.Result.Metadata
			}
			return toolOverride(h, slotAfterTool, map[string]any{"client": client, "name": ev.Name, "args": ev.Args, "id": ev.ID, "turn": ev.Turn, "result": result})
		}
	}
	return nil
}

// toolOverride calls back and turns the answer ({result} / {args} / null) into the port's
// ToolOverride; null is no override.
func toolOverride(h *host, slot string, args map[string]any) (*toolnexus.ToolOverride, error) {
	var ov *struct {
		Args   map[string]any
		Result *struct {
			Output  string
			IsError bool
			Pending json.RawMessage // a guard-raised suspension (§10): the result's metadata.pending
		}
	}
	if _, err := h.call(slot, args, &ov); err != nil || ov == nil {
		return nil, err
	}
	out := &toolnexus.ToolOverride{Args: ov.Args}
	if ov.Result != nil {
		meta, err := pendingOverride(ov.Result.Pending)
		if err != nil {
			return nil, err
		}
		out.Result = &toolnexus.ToolResult{Output: ov.Result.Output, IsError: ov.Result.IsError, Metadata: meta}
	}
	return out, nil
}

// pendingOverride is a guard's answer's pending Request (§10), as the port's type, for the
// result's metadata.
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
