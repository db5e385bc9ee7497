package common

import (
	"testing"
)

func TestNullResultIsNoSuccess(t *testing.T) {
	if err := NullResult("mcp.load", map[string]any{"tools": nil, "status": nil}); err == nil {
		t.Error("mcp.load with null tools passed")
	}
	if err := NullResult("client.run", map[string]any{"text": "hi", "turns": 1.0, "toolCalls": []any{}}); err != nil {
		t.Errorf("a full run report failed: %v", err)
	}
	if err := NullResult("client.run", map[string]any{"turns": 1.0, "toolCalls": []any{}}); err == nil {
		t.Error("a run report without text passed")
	}
}
