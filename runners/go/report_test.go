package main

import (
	"encoding/json"
	"testing"

	toolnexus "github.com/muthuishere/toolnexus/golang"
)

// TestNilRunResultIsNull: no result from the library must reach the runner as null,
// never as a success with empty text and zero turns.
func TestNilRunResultIsNull(t *testing.T) {
	raw, _ := json.Marshal(runReport(nil))
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
	res, events, err := drainStream(ch)
	if err != nil || res != nil {
		t.Fatalf("drainStream = %v, %v; want nil, nil", res, err)
	}
	if len(events) != 1 || events[0].(map[string]any)["type"] != "done" {
		t.Errorf("events %v; want the one done event", events)
	}
}
