package mcp

import (
	"context"
	"slices"
	"time"

	mcpfake "github.com/muthuishere/toolnexus-conformance/fakes/mcp"
	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
)

// warmTimeout bounds the warm-up; an adapter that misses it is started again without one.
const warmTimeout = 10 * time.Second

// warm lists a fake streamable HTTP MCP server through a new adapter before
// it serves any scenario, so every scenario meets a process whose MCP code is loaded. Without
// it a timing-bound scenario (a 400 ms server timeout) could pass or fail depending on whether
// its process was fresh: a cold JVM needs over a second for its first MCP connection, and
// with --jobs, or after a replacement, a scenario cannot know which process it gets. The
// result is not judged; it reports false when the warm-up broke the process.
func warm(ctx context.Context, proc *adapter.Process, ops []any) bool {
	if !slices.Contains(ops, any("mcp.list")) {
		return true
	}
	a, err := mcpfake.StartStreamable()
	if err != nil {
		return true
	}
	defer a.Close()
	ctx, cancel := context.WithTimeout(ctx, warmTimeout)
	defer cancel()
	cfg := map[string]any{"inline": map[string]any{"mcpServers": map[string]any{
		"warm": map[string]any{"url": a.URL()}}}}
	_, err = proc.Call(ctx, "mcp.list", map[string]any{"mcpConfig": cfg})
	return err == nil
}
