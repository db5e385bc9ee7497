package toolnexus

import "context"

// resolvePending is §10's loop rule for one suspended call. Without WaitFor the run halts:
// halted is the request, and the result is the placeholder the transcript keeps, whose
// content is the request's prompt (SPEC.md §10 pins this reading of "the pending output").
// With WaitFor, a refusal and a retry that suspends again come back as error results, so
// the model decides and the loop never spins on one request.
func (c *Client) resolvePending(ctx context.Context, tk *Toolkit, tc call, args map[string]any, req Request, turn int) (ToolResult, *Request, error) {
	if c.opts.WaitFor == nil {
		return ToolResult{Output: req.Prompt, IsError: true}, &req, nil
	}
	answer, err := c.waitFor(ctx, req)
	if err != nil {
		return ToolResult{}, nil, err
	}
	if !answer.Ok {
		return ToolResult{Output: "declined/expired: " + req.Prompt, IsError: true}, nil, nil
	}
	out, err := tk.execute(ctx, tc.name, args, &answer)
	if err != nil {
		return ToolResult{}, nil, err
	}
	if PendingOf(out) != nil {
		return ToolResult{Output: "unresolved: " + req.Prompt, IsError: true}, nil, nil
	}
	out, err = c.afterTool(ctx, tc, args, out, turn)
	return out, nil, err
}

// waitFor calls the host's slot; it takes no context, so the run's own cancel ends the
// wait here and the slot is left to return into nothing.
func (c *Client) waitFor(ctx context.Context, req Request) (Answer, error) {
	type reply struct {
		a   Answer
		err error
	}
	done := make(chan reply, 1)
	go func() {
		a, err := c.opts.WaitFor(req)
		done <- reply{a, err}
	}()
	select {
	case r := <-done:
		return r.a, r.err
	case <-ctx.Done():
		return Answer{}, ctx.Err()
	}
}
