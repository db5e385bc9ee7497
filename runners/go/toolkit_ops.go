package main

import (
	"context"
	"encoding/json"
	"time"

	toolnexus "github.com/muthuishere/toolnexus/golang"
)

// mcpConfigArg is {file: path} or {inline: object}.
type mcpConfigArg struct {
	File   *string        `json:"file"`
	Inline map[string]any `json:"inline"`
}

// value is what the port's McpConfig parameter receives: the path string for
// {file}, the object for {inline}. It returns an untyped nil when absent, so
// the port sees "no MCP config" rather than a typed nil.
func (m *mcpConfigArg) value() (any, error) {
	switch {
	case m == nil:
		return nil, nil
	case m.File != nil && m.Inline == nil:
		return *m.File, nil
	case m.Inline != nil && m.File == nil:
		return m.Inline, nil
	}
	return nil, unsupportedf("adapter: mcpConfig needs exactly one of file or inline")
}

// timing is the optional cancellation of ops that take a context.
type timing struct {
	CancelAfterMs *int64 `json:"cancelAfterMs"`
	DeadlineMs    *int64 `json:"deadlineMs"`
}

// context builds the caller's context: cancelAfterMs fires the cancel func
// from a timer started now, deadlineMs sets a deadline. The returned cancel
// must be called when the op returns, as any Go host would defer it.
func (t timing) context() (context.Context, context.CancelFunc) {
	ctx, cancel := context.Background(), context.CancelFunc(func() {})
	if t.DeadlineMs != nil {
		ctx, cancel = context.WithTimeout(ctx, time.Duration(*t.DeadlineMs)*time.Millisecond)
	}
	if t.CancelAfterMs != nil {
		inner := cancel
		var c context.CancelFunc
		ctx, c = context.WithCancel(ctx)
		if *t.CancelAfterMs <= 0 {
			// 0 ms: already cancelled when the port is called (SPEC.md §3), never a race.
			c()
			return ctx, func() { inner() }
		}
		timer := time.AfterFunc(time.Duration(*t.CancelAfterMs)*time.Millisecond, c)
		cancel = func() { timer.Stop(); c(); inner() }
	}
	return ctx, cancel
}

// set reports whether any timing was asked for.
func (t timing) set() bool { return t.CancelAfterMs != nil || t.DeadlineMs != nil }

// extraTool mirrors one extraTools entry.
type extraTool struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	InputSchema map[string]any `json:"inputSchema"`
	Output      string         `json:"output"`
}

// toolkitCreateArgs mirrors args.toolkit.create.
type toolkitCreateArgs struct {
	Handle     string        `json:"handle"`
	McpConfig  *mcpConfigArg `json:"mcpConfig"`
	ExtraTools []extraTool   `json:"extraTools"`
	timing
}

// opToolkitCreate builds a toolkit with builtins and skills off, through the
// context-aware CreateToolkit.
func opToolkitCreate(a *adapter, raw json.RawMessage) (any, error) {
	var args toolkitCreateArgs
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	cfg, err := args.McpConfig.value()
	if err != nil {
		return nil, err
	}
	opts := toolnexus.Options{McpConfig: cfg, Builtins: false}
	for _, et := range args.ExtraTools {
		opts.ExtraTools = append(opts.ExtraTools, hostTool(et))
	}
	ctx, cancel := args.timing.context()
	defer cancel()
	tk, err := toolnexus.CreateToolkit(ctx, opts)
	if err != nil {
		return nil, asConfigError(err)
	}
	if tk == nil {
		// SPEC.md §3: no toolkit and no error is reported as null; no handle is kept.
		return map[string]any{"tools": nil, "status": nil}, nil
	}
	if old, ok := a.toolkits[args.Handle]; ok {
		old.Close()
	}
	a.toolkits[args.Handle] = tk
	return map[string]any{"tools": toolNames(tk.Tools()), "status": statusMap(tk.McpStatus())}, nil
}

// hostTool turns an extraTools entry into a host tool that answers with its output.
func hostTool(et extraTool) toolnexus.Tool {
	output := et.Output
	return toolnexus.Tool{
		Name:        et.Name,
		Description: et.Description,
		InputSchema: et.InputSchema,
		Source:      toolnexus.SourceCustom,
		Execute: func(map[string]any, *toolnexus.ToolContext) (toolnexus.ToolResult, error) {
			return toolnexus.ToolResult{Output: output}, nil
		},
	}
}

// toolkitCloseArgs mirrors args.toolkit.close.
type toolkitCloseArgs struct {
	Toolkit string `json:"toolkit"`
}

// opToolkitClose closes a toolkit and forgets its handle.
func opToolkitClose(a *adapter, raw json.RawMessage) (any, error) {
	var args toolkitCloseArgs
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	tk, err := a.lookupToolkit(args.Toolkit)
	if err != nil {
		return nil, err
	}
	if tk != nil {
		tk.Close()
	}
	delete(a.toolkits, args.Toolkit)
	return map[string]any{}, nil
}

// toolNames lists final tool names in toolkit order, never null.
func toolNames(tools []toolnexus.Tool) []string {
	out := make([]string, 0, len(tools))
	for _, t := range tools {
		out = append(out, t.Name)
	}
	return out
}

// statusMap converts server states to plain strings, never null.
func statusMap(status map[string]toolnexus.McpStatus) map[string]string {
	out := make(map[string]string, len(status))
	for k, v := range status {
		out[k] = string(v)
	}
	return out
}
