package main

import (
	"context"
	"encoding/json"

	toolnexus "github.com/muthuishere/toolnexus/golang"
)

// The llm area: the client, its runs, and the body transform and BeforeLLM stubs. The
// other areas add their client.create options (hooks, resilience, store, suspension,
// transport) through the kit.

const (
	slotBodyTransform = "llm.bodyTransform"
	slotBeforeLLM     = "llm.beforeLLM"
)

var llmArea = registerArea(area{name: "llm", slots: []string{slotBodyTransform, slotBeforeLLM},
	ops: map[string]opFunc{"client.create": op(createClient), "client.run": op(runClient), "client.ask": op(runClient)}})

// clientArgs are client.create's own options.
type clientArgs struct {
	Handle, Style, Model     string
	BaseURL                  string `json:"baseUrl"`
	APIKey                   string `json:"apiKey"`
	SystemPrompt             string
	MaxTurns                 int
	RequestParams            map[string]any
	BodyTransform, BeforeLLM bool
}

// createClient installs host functions only when asked, so an unset option stays unset; the
// other areas' options come after its own.
func createClient(k *kit, x clientArgs, r request) (any, error) {
	opts := toolnexus.ClientOptions{BaseURL: x.BaseURL, Style: toolnexus.ClientStyle(x.Style), Model: x.Model,
		APIKey: x.APIKey, RequestParams: x.RequestParams, SystemPrompt: x.SystemPrompt, MaxTurns: x.MaxTurns}
	if x.BodyTransform {
		opts.BodyTransform = bodyTransform(k.host, x.Handle)
	}
	if x.BeforeLLM {
		opts.Hooks = &toolnexus.Hooks{BeforeLLM: beforeLLM(k.host, x.Handle)}
	}
	if err := clientOptions(k, x.Handle, r.Args, &opts); err != nil {
		return nil, err
	}
	c := toolnexus.CreateClient(opts)
	if c == nil {
		return nil, adapterErr("failed", "adapter: CreateClient returned nil")
	}
	keep(k.handles, x.Handle, c, nil)
	return nil, nil
}

// runArgs are client.run's and client.ask's.
type runArgs struct {
	timing
	Client, Toolkit, Prompt, ID string
	Stream, OnText              bool
	History                     *[]any // [] and absent differ
}

// runClient serves client.run and client.ask; with no toolkit it passes an empty one.
func runClient(k *kit, x runArgs, r request) (any, error) {
	c, err := lookup[*toolnexus.Client](k.handles, x.Client)
	if err != nil {
		return nil, err
	}
	if x.Stream && x.History != nil {
		return nil, adapterErr("unsupported", "adapter: the Go port's Stream takes no history")
	}
	ctx, cancel := x.context() // cancelAfterMs: the port's external cancel is the context
	defer cancel()
	var tk *toolnexus.Toolkit
	if x.Toolkit != "" {
		if tk, err = lookup[*toolnexus.Toolkit](k.handles, x.Toolkit); err != nil {
			return nil, err
		}
	} else {
		if tk, err = toolnexus.CreateToolkit(context.Background(), toolnexus.Options{Builtins: false}); err != nil {
			return nil, err
		}
		defer tk.Close()
	}
	var res toolnexus.RunResult
	var events []any
	deltas := []string{}
	out := &res
	switch {
	case r.Op == "client.ask" && x.OnText: // the text callback: AskStream, the deltas relayed
		res, err = c.AskStream(ctx, x.Prompt, tk, x.ID, func(d string) { deltas = append(deltas, d) })
	case r.Op == "client.ask":
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
func bodyTransform(h *host, client string) func(map[string]any) map[string]any {
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
func beforeLLM(h *host, client string) func(context.Context, toolnexus.BeforeLLMEvent) (*toolnexus.LLMOverride, error) {
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
