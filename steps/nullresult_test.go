package steps

import (
	"testing"

	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

func TestNullResultIsNoSuccess(t *testing.T) {
	if err := common.NullResult("mcp.load", map[string]any{"tools": nil, "status": nil}); err == nil {
		t.Error("mcp.load with null tools passed")
	}
	if err := common.NullResult("client.run", map[string]any{"text": "hi", "turns": 1.0, "toolCalls": []any{}}); err != nil {
		t.Errorf("a full run report failed: %v", err)
	}
	if err := common.NullResult("client.run", map[string]any{"turns": 1.0, "toolCalls": []any{}}); err == nil {
		t.Error("a run report without text passed")
	}
}
