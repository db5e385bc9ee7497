package main

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	toolnexus "github.com/muthuishere/toolnexus/golang"
)

// The llm area: the client, its runs, and the body transform and BeforeLLM stubs.

// opClientCreate installs host functions only when asked, so an unset option stays unset.
func opClientCreate(a *adapter, x args, _ string) (any, error) {
	e := &clientEntry{}
	opts := toolnexus.ClientOptions{BaseURL: x.BaseURL, Style: toolnexus.ClientStyle(x.Style), Model: x.Model,
		APIKey: x.APIKey, RequestParams: x.RequestParams, SystemPrompt: x.SystemPrompt, MaxTurns: x.MaxTurns}
	if x.BodyTransform {
		opts.BodyTransform = a.host.bodyTransform(x.Handle)
	}
	if x.BeforeLLM {
		opts.Hooks = &toolnexus.Hooks{BeforeLLM: a.host.beforeLLM(x.Handle)}
	}
	a.host.installHooks(x.Handle, x, &opts)
	a.host.resilienceOptions(x.Handle, x, &opts)
	a.host.installWaitFor(x.Handle, x, &opts)
	if x.HTTPClient == "recording" { // the host's whole client, its own Timeout included
		opts.HTTPClient = &http.Client{Transport: transport{a.host, x.Handle}, Timeout: time.Duration(x.HTTPTimeoutMs) * time.Millisecond}
	}
	if x.Store == "host" {
		e.hostStore = toolnexus.NewInMemoryConversationStore()
		opts.Store = e.hostStore
	}
	if e.client = toolnexus.CreateClient(opts); e.client == nil {
		return nil, adapterErr("failed", "adapter: CreateClient returned nil")
	}
	a.clients[x.Handle] = e
	return nil, nil
}

// opClientRun serves client.run and client.ask; with no toolkit it passes an empty one.
func opClientRun(a *adapter, x args, op string) (any, error) {
	e, err := a.lookupClient(x.Client)
	if err != nil {
		return nil, err
	}
	if x.Stream && x.History != nil {
		return nil, adapterErr("unsupported", "adapter: the Go port's Stream takes no history")
	}
	ctx, cancel := x.context() // cancelAfterMs: the port's external cancel is the context
	defer cancel()
	tk := a.toolkits[x.Toolkit]
	if tk == nil && x.Toolkit != "" {
		return nil, adapterErr("failed", "adapter: unknown toolkit handle "+x.Toolkit)
	} else if tk == nil {
		if tk, err = toolnexus.CreateToolkit(context.Background(), toolnexus.Options{Builtins: false}); err != nil {
			return nil, err
		}
		defer tk.Close()
	}
	var res toolnexus.RunResult
	var events []any
	deltas := []string{}
	out := &res
	switch c := e.client; {
	case op == "client.ask" && x.OnText: // the text callback: AskStream, the deltas relayed
		res, err = c.AskStream(ctx, x.Prompt, tk, x.ID, func(d string) { deltas = append(deltas, d) })
	case op == "client.ask":
		res, err = c.Ask(ctx, x.Prompt, tk, x.ID)
	case x.Stream:
		var ch <-chan toolnexus.StreamEvent
		if ch, err = c.StreamWithID(ctx, x.Prompt, tk, x.ID); err == nil {
			out, events, err = drainStream(ch)
		}
	case x.History != nil:
		res, err = c.RunWithHistory(ctx, x.Prompt, tk, append([]any{}, *x.History...))
	default:
		res, err = c.Run(ctx, x.Prompt, tk)
	}
	if err != nil {
		return nil, err
	}
	report := runReport(out)
	if x.Stream {
		report["events"] = events
	}
	if x.OnText {
		report["deltas"] = deltas
	}
	return report, nil
}

// runReport is what the library returned; no result stays null.
func runReport(res *toolnexus.RunResult) map[string]any {
	if res == nil {
		return map[string]any{"text": nil, "turns": nil, "toolCalls": nil}
	}
	names, calls := []string{}, []any{}
	for _, tc := range res.ToolCalls {
		names = append(names, tc.Name)
		calls = append(calls, tc) // its JSON tags are the protocol's names
	}
	var limit any // Go has no absent string: "" is no limit
	if res.Limit != "" {
		limit = res.Limit
	}
	report := map[string]any{"text": res.Text, "turns": res.Turns, "toolCalls": names, "calls": calls,
		"status": res.Status, "limit": limit, "toolCallCount": res.ToolCallCount, "messages": res.Messages,
		"usage": map[string]any{"promptTokens": res.Usage.PromptTokens, "completionTokens": res.Usage.CompletionTokens, "totalTokens": res.Usage.TotalTokens}}
	if res.Pending != nil { // present iff the run halted on a suspension
		report["pending"] = res.Pending
	}
	return report
}

// drainStream consumes a stream up to its terminal event, keeping every event in the
// protocol's names; the rest is drained in the background so the library's goroutine never
// blocks on us.
func drainStream(ch <-chan toolnexus.StreamEvent) (*toolnexus.RunResult, []any, error) {
	events := []any{}
	for ev := range ch {
		events = append(events, eventReport(ev))
		if ev.Type != "done" && ev.Type != "error" {
			continue
		}
		go func() {
			for range ch {
			}
		}()
		if ev.Type == "error" && ev.Err == nil {
			return nil, events, adapterErr("failed", "adapter: error event without an error")
		}
		return ev.Result, events, ev.Err // a done event without a result is reported as null
	}
	return nil, events, adapterErr("failed", "adapter: stream closed without a done or error event")
}

// eventReport is one stream event with the fields its type carries (SPEC §8 Streaming).
func eventReport(ev toolnexus.StreamEvent) map[string]any {
	out := map[string]any{"type": ev.Type}
	switch ev.Type {
	case "text":
		out["delta"] = ev.Delta
	case "tool_call":
		out["id"], out["name"], out["args"] = ev.ID, ev.Name, ev.Args
	case "tool_result":
		out["id"], out["name"], out["output"], out["isError"] = ev.ID, ev.Name, ev.Output, ev.IsError
	case "pending":
		out["request"] = ev.Request
	case "usage":
		if ev.Usage != nil {
			out["usage"] = map[string]any{"promptTokens": ev.Usage.PromptTokens, "completionTokens": ev.Usage.CompletionTokens, "totalTokens": ev.Usage.TotalTokens}
		}
	case "done":
		out["result"] = runReport(ev.Result)
	case "error":
		if ev.Err != nil {
			out["error"] = ev.Err.Error()
		}
	}
	return out
}

// bodyTransform calls back with the body; in place, it edits the very map it got.
func (h *host) bodyTransform(client string) func(map[string]any) map[string]any {
	return func(body map[string]any) map[string]any {
		var m map[string]any
		inPlace, err := h.call(slotBodyTransform, map[string]any{"client": client, "body": body}, &m)
		if err != nil {
			panic(err) // the port's transform signature has no error
		}
		if inPlace && m != nil {
			return patch(body, m).(map[string]any)
		}
		return m
	}
}

// patch edits old to equal v, keeping old's maps and slices where both have one: a host's
// in-place rewrite (ADR A4.4). A scalar that encodes the same keeps old's Go type.
func patch(old, v any) any {
	switch nv := v.(type) {
	case map[string]any:
		if om, ok := old.(map[string]any); ok {
			for k := range om {
				if _, keep := nv[k]; !keep {
					delete(om, k)
				}
			}
			for k, x := range nv {
				om[k] = patch(om[k], x)
			}
			return om
		}
	case []any:
		if ol, ok := old.([]any); ok && len(ol) == len(nv) {
			for i := range ol {
				ol[i] = patch(ol[i], nv[i])
			}
			return ol
		}
	}
	if a, err := json.Marshal(old); err == nil {
		if b, _ := json.Marshal(v); string(a) == string(b) {
			return old
		}
	}
	return v
}

// beforeLLM calls back with the turn; the answer is the override, null for none.
func (h *host) beforeLLM(client string) func(context.Context, toolnexus.BeforeLLMEvent) (*toolnexus.LLMOverride, error) {
	return func(_ context.Context, ev toolnexus.BeforeLLMEvent) (*toolnexus.LLMOverride, error) {
		var ov *struct {
			Messages []any
			Tools    *[]any
		}
		args := map[string]any{"client": client, "turn": ev.Turn, "messages": ev.Messages, "tools": ev.Tools}
		if _, err := h.call(slotBeforeLLM, args, &ov); err != nil || ov == nil {
			return nil, err
		}
		out := &toolnexus.LLMOverride{Messages: ov.Messages}
		if ov.Tools != nil {
			out.Tools = append([]any{}, *ov.Tools...) // present, even empty: replace the tools
		}
		return out, nil
	}
}
