package main

import (
	"context"
	"encoding/json"
	"testing"

	toolnexus "github.com/muthuishere/toolnexus/golang"
)

// TestNilRunResultIsNull: no result from the library must reach the runner as null,
// never as a success with empty text and zero turns.
func TestNilRunResultIsNull(t *testing.T) {
	a := newTestAdapter(t, nil)
	mustOK(t, call(t, a, "client.create", map[string]any{
		"handle": "c", "baseUrl": "http://127.0.0.1:1", "style": "openai", "model": "m", "apiKey": "k",
	}))
	got, err := a.withRun(args{Client: "c"}, func(context.Context, *toolnexus.Client, *toolnexus.Toolkit) (*toolnexus.RunResult, error) {
		return nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(got)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	for _, k := range []string{"text", "turns", "toolCalls"} {
		if v, ok := m[k]; !ok || v != nil {
			t.Errorf("%s = %v (present %v); want null in %s", k, v, ok, raw)
		}
	}
}

// TestDoneWithoutResult: a done event with no result is passed on as nil, not invented.
func TestDoneWithoutResult(t *testing.T) {
	ch := make(chan toolnexus.StreamEvent, 1)
	ch <- toolnexus.StreamEvent{Type: "done"}
	close(ch)
	res, err := drainStream(ch, nil)
	if err != nil || res != nil {
		t.Fatalf("drainStream = %v, %v; want nil, nil", res, err)
	}
}
