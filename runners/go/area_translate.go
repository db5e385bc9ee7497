package main

import (
	toolnexus "github.com/muthuishere/toolnexus/golang"
)

// The translate area (§11): client.translate relays one request to the port's Translate and
// its result back; the toolkit is declared, never run.

var translateArea = registerArea(area{name: "translate", ops: map[string]opFunc{"client.translate": op(translate)}})

// translateArgs are the request: tools and toolChoice as given, system only when sent.
type translateArgs struct {
	timing
	Client, Toolkit string
	Messages, Tools []any
	ToolChoice      any
	System          *string
	MaxTokens       int
}

func translate(k *kit, x translateArgs, _ request) (any, error) {
	c, err := lookup[*toolnexus.Client](k.handles, x.Client)
	if err != nil {
		return nil, err
	}
	req := toolnexus.TranslateRequest{Messages: x.Messages, Tools: x.Tools, ToolChoice: x.ToolChoice, MaxTokens: x.MaxTokens}
	if x.System != nil {
		req.System = *x.System
	}
	if x.Toolkit != "" {
		if req.Toolkit, err = lookup[*toolnexus.Toolkit](k.handles, x.Toolkit); err != nil {
			return nil, err
		}
	}
	ctx, cancel := x.context()
	defer cancel()
	res, err := c.Translate(ctx, req)
	if err != nil {
		return nil, err
	}
	calls := []any{}
	for _, c := range res.ToolCalls {
		calls = append(calls, map[string]any{"id": c.ID, "name": c.Name, "arguments": c.Arguments})
	}
	return map[string]any{"text": res.Text, "toolCalls": calls, "finishReason": res.FinishReason, "model": res.Model,
		"usage": map[string]any{"promptTokens": res.Usage.PromptTokens, "completionTokens": res.Usage.CompletionTokens, "totalTokens": res.Usage.TotalTokens}}, nil
}
