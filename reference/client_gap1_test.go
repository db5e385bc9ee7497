package toolnexus

import (
	"context"
	"fmt"
	"testing"
)

func samplingParams() map[string]any {
	return map[string]any{"temperature": 0.42, "chat_template_kwargs": map[string]any{"enable_thinking": false}}
}

// G1.1, G1.5: the params reach the top level of every body, turn 2 included.
func TestRequestParamsReachEveryBody(t *testing.T) {
	for _, p := range fourPaths {
		t.Run(p.name, func(t *testing.T) {
			f := newFakeLLM(t, toolLoop...)
			c := p.client(f, func(o *ClientOptions) { o.RequestParams = samplingParams() })
			if _, _, err := p.run(t, context.Background(), c, "hi", toolkitWith(t, echoTool())); err != nil {
				t.Fatal(err)
			}
			reqs := f.requests()
			if len(reqs) != 2 {
				t.Fatalf("got %d requests, want 2 (tool loop)", len(reqs))
			}
			for i, r := range reqs {
				mustEqual(t, fmt.Sprintf("temperature on turn %d", i+1), r.Body["temperature"], 0.42)
				mustEqual(t, "chat_template_kwargs", r.Body["chat_template_kwargs"], map[string]any{"enable_thinking": false})
			}
		})
	}
}

// G1.2: the caller's max_tokens wins over the anthropic default.
func TestRequestParamsWinOnCollision(t *testing.T) {
	for _, p := range fourPaths[2:] {
		t.Run(p.name, func(t *testing.T) {
			f := newFakeLLM(t)
			c := p.client(f, func(o *ClientOptions) { o.RequestParams = map[string]any{"max_tokens": 999} })
			if _, _, err := p.run(t, context.Background(), c, "hi", nil); err != nil {
				t.Fatal(err)
			}
			mustEqual(t, "max_tokens", f.requests()[0].Body["max_tokens"], 999.0)
		})
	}
}

// G1.3: the transform sees the merged body and its return value is what is sent.
func TestBodyTransformSeesMergeAndDecidesWire(t *testing.T) {
	for _, p := range fourPaths {
		t.Run(p.name, func(t *testing.T) {
			f := newFakeLLM(t)
			var saw []map[string]any
			c := p.client(f, func(o *ClientOptions) {
				o.RequestParams = map[string]any{"temperature": 0.42}
				o.BodyTransform = func(b map[string]any) map[string]any {
					saw = append(saw, deepCopy(b).(map[string]any))
					// A fresh map, so only the return value can carry the change.
					out := map[string]any{"injected": "yes"}
					for k, v := range b {
						if k != "temperature" {
							out[k] = v
						}
					}
					return out
				}
			})
			if _, _, err := p.run(t, context.Background(), c, "hi", toolkitWith(t, echoTool())); err != nil {
				t.Fatal(err)
			}
			if len(saw) != 1 || saw[0]["temperature"] != 0.42 {
				t.Fatalf("transform did not see the merged temperature: %v", saw)
			}
			body := f.requests()[0].Body
			if _, ok := body["temperature"]; ok {
				t.Error("a key the transform dropped reached the wire")
			}
			mustEqual(t, "injected", body["injected"], "yes")
		})
	}
}

// G1.4: with no new options each path sends exactly its pre-change key set.
func TestBodyKeySetsUnchanged(t *testing.T) {
	want := map[string][]string{
		"openai run":       {"messages", "model", "tool_choice", "tools"},
		"openai stream":    {"messages", "model", "stream", "stream_options", "tool_choice", "tools"},
		"anthropic run":    {"max_tokens", "messages", "model", "tools"},
		"anthropic stream": {"max_tokens", "messages", "model", "stream", "tools"},
	}
	for _, p := range fourPaths {
		t.Run(p.name, func(t *testing.T) {
			f := newFakeLLM(t)
			if _, _, err := p.run(t, context.Background(), p.client(f, nil), "hi", toolkitWith(t, echoTool())); err != nil {
				t.Fatal(err)
			}
			body := f.requests()[0].Body
			mustEqual(t, "keys", keysOf(body), want[p.name])
			mustEqual(t, "model", body["model"], "m")
			mustEqual(t, "messages", body["messages"], []any{map[string]any{"role": "user", "content": "hi"}})
			if p.style == StyleOpenAI {
				mustEqual(t, "tool_choice", body["tool_choice"], "auto")
			} else {
				mustEqual(t, "max_tokens", body["max_tokens"], 4096.0)
			}
			if p.stream {
				mustEqual(t, "stream", body["stream"], true)
				if p.style == StyleOpenAI {
					mustEqual(t, "stream_options", body["stream_options"], map[string]any{"include_usage": true})
				}
			}
		})
	}
}

// A system prompt adds a leading system message (openai) or a system key (anthropic).
func TestSystemPromptPlacement(t *testing.T) {
	for _, p := range fourPaths {
		t.Run(p.name, func(t *testing.T) {
			f := newFakeLLM(t)
			c := p.client(f, func(o *ClientOptions) { o.SystemPrompt = "be brief" })
			if _, _, err := p.run(t, context.Background(), c, "hi", nil); err != nil {
				t.Fatal(err)
			}
			body := f.requests()[0].Body
			msgs := body["messages"].([]any)
			if p.style == StyleOpenAI {
				mustEqual(t, "first message", msgs[0], map[string]any{"role": "system", "content": "be brief"})
				if _, ok := body["system"]; ok {
					t.Error("openai body has a system key")
				}
			} else {
				mustEqual(t, "system", body["system"], "be brief")
				mustEqual(t, "messages", msgs, []any{map[string]any{"role": "user", "content": "hi"}})
			}
		})
	}
}

// G1.6: hook, then merge, then transform: the transform sees the hook's messages and the params.
func TestPipelineOrder(t *testing.T) {
	for _, p := range fourPaths {
		t.Run(p.name, func(t *testing.T) {
			f := newFakeLLM(t)
			var hookSaw string
			var saw map[string]any
			c := p.client(f, func(o *ClientOptions) {
				o.RequestParams = map[string]any{"temperature": 0.42}
				o.Hooks = &Hooks{BeforeLLM: func(_ context.Context, ev BeforeLLMEvent) (*LLMOverride, error) {
					hookSaw = lastUser(ev.Messages)["content"].(string)
					msgs := deepCopy(ev.Messages).([]any)
					lastUser(msgs)["content"] = "rewritten by hook"
					return &LLMOverride{Messages: msgs}, nil
				}}
				o.BodyTransform = func(b map[string]any) map[string]any {
					saw = deepCopy(b).(map[string]any)
					return b
				}
			})
			if _, _, err := p.run(t, context.Background(), c, "hi", nil); err != nil {
				t.Fatal(err)
			}
			mustEqual(t, "hook saw the base body's prompt", hookSaw, "hi")
			mustEqual(t, "transform saw the hook's message", lastUser(saw["messages"].([]any))["content"], "rewritten by hook")
			mustEqual(t, "transform saw the merged params", saw["temperature"], 0.42)
			mustEqual(t, "wire carries the hook's message", lastUser(f.requests()[0].Body["messages"].([]any))["content"], "rewritten by hook")
		})
	}
}

// A4.1: messages, tools and stream in RequestParams are stripped and warned about on every build.
func TestForbiddenParamsStrippedAndWarned(t *testing.T) {
	for _, p := range fourPaths {
		t.Run(p.name, func(t *testing.T) {
			warnings := captureWarnings(t)
			f := newFakeLLM(t, toolLoop...)
			c := p.client(f, func(o *ClientOptions) {
				o.RequestParams = map[string]any{"messages": "bogus", "tools": "bogus", "stream": !p.stream, "temperature": 0.1}
			})
			if _, _, err := p.run(t, context.Background(), c, "hi", toolkitWith(t, echoTool())); err != nil {
				t.Fatal(err)
			}
			reqs := f.requests()
			for _, r := range reqs {
				if _, ok := r.Body["messages"].([]any); !ok {
					t.Errorf("messages replaced: %v", r.Body["messages"])
				}
				if _, ok := r.Body["tools"].([]any); !ok {
					t.Errorf("tools replaced: %v", r.Body["tools"])
				}
				s, present := r.Body["stream"]
				if p.stream && s != true {
					t.Errorf("stream = %v on a streaming call", s)
				}
				if !p.stream && present {
					t.Errorf("stream key present on a non-streaming call: %v", s)
				}
				mustEqual(t, "allowed key still merged", r.Body["temperature"], 0.1)
			}
			got := warnings()
			if len(got) != 3*len(reqs) {
				t.Fatalf("got %d warnings for %d bodies, want 3 per body: %q", len(got), len(reqs), got)
			}
			for _, key := range []string{"messages", "stream", "tools"} {
				want := `[toolnexus] requestParams key "` + key + `" is not allowed — ignored (use BodyTransform)`
				n := 0
				for _, w := range got {
					if w == want {
						n++
					}
				}
				if n != len(reqs) {
					t.Errorf("warning %q emitted %d times, want %d", want, n, len(reqs))
				}
			}
		})
	}
}

// A4.2: the transform may rewrite messages; its output is sent verbatim, and
// its edits never leak into the transcript or the next turn.
func TestBodyTransformRewritesMessages(t *testing.T) {
	for _, p := range fourPaths {
		t.Run(p.name, func(t *testing.T) {
			f := newFakeLLM(t, toolLoop...)
			var returned []any
			c := p.client(f, func(o *ClientOptions) {
				o.BodyTransform = func(b map[string]any) map[string]any {
					m := lastUser(b["messages"].([]any))
					m["content"] = m["content"].(string) + " /nothink"
					returned = append(returned, jsonish(t, b))
					return b
				}
			})
			res, _, err := p.run(t, context.Background(), c, "hi", toolkitWith(t, echoTool()))
			if err != nil {
				t.Fatal(err)
			}
			reqs := f.requests()
			if len(reqs) != 2 || len(returned) != 2 {
				t.Fatalf("requests %d, transform calls %d; want 2 each", len(reqs), len(returned))
			}
			for i, r := range reqs {
				mustEqual(t, "wire body = transform output", r.Body, returned[i])
				mustEqual(t, "last user content", lastUser(r.Body["messages"].([]any))["content"], "hi /nothink")
			}
			mustEqual(t, "transcript keeps the prompt", lastUser(res.Messages)["content"], "hi")
		})
	}
}

// A4.3: a nil return means the body goes out as built.
func TestBodyTransformNilMeansUnchanged(t *testing.T) {
	for _, p := range fourPaths {
		t.Run(p.name, func(t *testing.T) {
			plain := newFakeLLM(t, toolLoop...)
			if _, _, err := p.run(t, context.Background(), p.client(plain, func(o *ClientOptions) { o.RequestParams = samplingParams() }), "hi", toolkitWith(t, echoTool())); err != nil {
				t.Fatal(err)
			}
			f := newFakeLLM(t, toolLoop...)
			calls := 0
			c := p.client(f, func(o *ClientOptions) {
				o.RequestParams = samplingParams()
				o.BodyTransform = func(map[string]any) map[string]any { calls++; return nil }
			})
			if _, _, err := p.run(t, context.Background(), c, "hi", toolkitWith(t, echoTool())); err != nil {
				t.Fatal(err)
			}
			want, got := plain.requests(), f.requests()
			if calls != 2 || len(got) != 2 || len(want) != 2 {
				t.Fatalf("transform calls %d, requests %d/%d; want 2", calls, len(got), len(want))
			}
			for i := range got {
				mustEqual(t, "body", got[i].Body, want[i].Body)
			}
		})
	}
}

// Nested RequestParams values are copied: a transform editing one in place
// changes neither the options nor the next turn's body.
func TestNestedParamsAreCopied(t *testing.T) {
	for _, p := range fourPaths {
		t.Run(p.name, func(t *testing.T) {
			f := newFakeLLM(t, toolLoop...)
			params := samplingParams()
			var seen []any
			c := p.client(f, func(o *ClientOptions) {
				o.RequestParams = params
				o.BodyTransform = func(b map[string]any) map[string]any {
					kw := b["chat_template_kwargs"].(map[string]any)
					seen = append(seen, kw["enable_thinking"])
					kw["enable_thinking"] = "edited"
					return b
				}
			})
			if _, _, err := p.run(t, context.Background(), c, "hi", toolkitWith(t, echoTool())); err != nil {
				t.Fatal(err)
			}
			mustEqual(t, "transform saw a fresh value each turn", seen, []any{false, false})
			mustEqual(t, "options untouched", params["chat_template_kwargs"], map[string]any{"enable_thinking": false})
			for _, r := range f.requests() {
				mustEqual(t, "the transform's edit on the wire", r.Body["chat_template_kwargs"], map[string]any{"enable_thinking": "edited"})
			}
		})
	}
}
