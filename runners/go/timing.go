package main

import (
	"context"
	"time"
)

// timing is the caller's cancel and deadline an op may carry (SPEC.md §3); an area embeds it
// in its own argument struct.
type timing struct {
	CancelAfterMs, DeadlineMs *int64
}

// context is the caller's: cancelAfterMs fires a timer started now (0: cancelled before the
// port is called, never a race), deadlineMs sets a deadline. Call the cancel when done, as a
// Go host would defer it.
func (x timing) context() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	stop := func() bool { return false }
	if x.CancelAfterMs != nil && *x.CancelAfterMs <= 0 {
		cancel()
	} else if x.CancelAfterMs != nil {
		stop = time.AfterFunc(time.Duration(*x.CancelAfterMs)*time.Millisecond, cancel).Stop
	}
	if x.DeadlineMs == nil {
		return ctx, func() { stop(); cancel() }
	}
	dctx, dcancel := context.WithTimeout(ctx, time.Duration(*x.DeadlineMs)*time.Millisecond)
	return dctx, func() { stop(); dcancel(); cancel() }
}
