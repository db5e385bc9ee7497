package toolnexus

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

// askPaths are Ask and its streamed twin, per style.
var askPaths = fourPaths

// ask runs one remembered exchange on this path.
func (p path) ask(t *testing.T, c *Client, prompt, id string) RunResult {
	t.Helper()
	if !p.stream {
		res, err := c.Ask(context.Background(), prompt, nil, id)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	ch, err := c.StreamWithID(context.Background(), prompt, nil, id)
	if err != nil {
		t.Fatal(err)
	}
	res, _, err := drain(t, ch)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func assistantText(style ClientStyle, text string) map[string]any {
	if style == StyleOpenAI {
		return map[string]any{"role": "assistant", "content": text}
	}
	return map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": text}}}
}

func user(text string) map[string]any { return map[string]any{"role": "user", "content": text} }

// G4.1: the accessor returns the very store passed in.
func TestStoreAccessorIdentity(t *testing.T) {
	s := NewInMemoryConversationStore()
	c := CreateClient(ClientOptions{Style: StyleOpenAI, Store: s})
	if got, ok := c.ConversationStore().(*InMemoryConversationStore); !ok || got != s {
		t.Fatalf("accessor returned %p, want %p", got, s)
	}
}

// G4.2: without a store the accessor exposes the default one Ask writes to.
func TestDefaultStoreHoldsAskTranscript(t *testing.T) {
	for _, p := range askPaths {
		t.Run(p.name, func(t *testing.T) {
			f := newFakeLLM(t)
			c := p.client(f, nil)
			if c.ConversationStore() == nil {
				t.Fatal("accessor is nil")
			}
			p.ask(t, c, "hi", "id1")
			got, err := c.ConversationStore().Get("id1")
			if err != nil {
				t.Fatal(err)
			}
			mustEqual(t, "saved transcript", jsonish(t, got), []any{user("hi"), jsonish(t, assistantText(p.style, "hello"))})
		})
	}
}

// G4.3: history saved through the accessor is what the next Ask sends.
func TestSavedHistoryFeedsAsk(t *testing.T) {
	for _, p := range askPaths {
		t.Run(p.name, func(t *testing.T) {
			f := newFakeLLM(t)
			c := p.client(f, nil)
			history := []any{user("earlier"), assistantText(p.style, "before")}
			if err := c.ConversationStore().Save("id2", history); err != nil {
				t.Fatal(err)
			}
			p.ask(t, c, "next", "id2")
			mustEqual(t, "wire messages", f.requests()[0].Body["messages"], []any{user("earlier"), jsonish(t, assistantText(p.style, "before")), user("next")})
		})
	}
}

// A8.1: a second Ask with the same id sends the earlier turns; an empty id remembers nothing.
func TestAskRemembers(t *testing.T) {
	for _, p := range askPaths {
		t.Run(p.name, func(t *testing.T) {
			f := newFakeLLM(t)
			c := p.client(f, func(o *ClientOptions) { o.SystemPrompt = "sys" })
			p.ask(t, c, "one", "a")
			p.ask(t, c, "two", "a")
			p.ask(t, c, "three", "")
			reqs := f.requests()
			want := []any{user("one"), jsonish(t, assistantText(p.style, "hello")), user("two")}
			if p.style == StyleOpenAI {
				sys := map[string]any{"role": "system", "content": "sys"}
				want = append([]any{sys}, want...)
				mustEqual(t, "stateless ask", reqs[2].Body["messages"], []any{sys, user("three")})
			} else {
				mustEqual(t, "stateless ask", reqs[2].Body["messages"], []any{user("three")})
				mustEqual(t, "system on a continued conversation", reqs[1].Body["system"], "sys")
			}
			mustEqual(t, "second ask", reqs[1].Body["messages"], want)
		})
	}
}

// The in-memory store hands out and keeps copies, and is safe for concurrent use.
func TestInMemoryStoreCopies(t *testing.T) {
	s := NewInMemoryConversationStore()
	if got, err := s.Get("missing"); got != nil || err != nil {
		t.Fatalf("missing id: %v, %v", got, err)
	}
	msgs := []any{user("a")}
	_ = s.Save("x", msgs)
	msgs[0].(map[string]any)["content"] = "edited after save"
	got, _ := s.Get("x")
	got[0].(map[string]any)["content"] = "edited after get"
	again, _ := s.Get("x")
	mustEqual(t, "stored", again, []any{user("a")})

	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprint("c", i%2)
			_ = s.Save(id, []any{user(id)})
			_, _ = s.Get(id)
		}()
	}
	wg.Wait()
}
