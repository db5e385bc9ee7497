package main

import (
	toolnexus "github.com/muthuishere/toolnexus/golang"
)

// The translate area (§11): client.translate relays one request to the port's Translate and
// its result back; the toolkit is declared, never run.

func opClientTranslate(a *adapter, x args, _ string) (any, error) {
	e, err := a.lookupClient(x.Client)
	if err != nil {
		return nil, err
	}
	req := toolnexus.TranslateRequest{Messages: x.Messages, Tools: x.Tools, ToolChoice: x.ToolChoice, MaxTokens: x.MaxTokens}
	if x.System != nil {
		req.System = *x.System
	}
	if x.Toolkit != "" {
		if req.Toolkit, err = a.toolkit(x.Toolkit); err != nil {
			return nil, err
		}
	}
	ctx, cancel := x.context()
	defer cancel()
	res, err := e.client.Translate(ctx, req)
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
