package main

import (
	toolnexus "github.com/muthuishere/toolnexus/golang"
)

// The resilience area: the retry options and an OnError that calls back resilience.onError.

const slotOnError = "resilience.onError"

var resilienceArea = registerArea(area{name: "resilience", slots: []string{slotOnError}, clientOptions: optionOf(resilienceOptions)})

// resilienceArgs are client.create's resilience options; retries is a pointer since 0 and
// absent differ.
type resilienceArgs struct {
	Retries                *int
	RetryBaseMs, TimeoutMs int
	OnError                bool
}

// resilienceOptions sets the retry budget, base, deadline and classifier client.create asked
// for. The protocol's retries 0 ("none") is -1 here: the Go API's int cannot tell 0 from
// unset, and documents 0 as the default; what -1 does is the library's to say.
func resilienceOptions(k *kit, client string, x resilienceArgs, opts *toolnexus.ClientOptions) error {
	if x.Retries != nil {
		opts.Retries = *x.Retries
		if *x.Retries == 0 {
			opts.Retries = -1
		}
	}
	opts.RetryBaseMs, opts.TimeoutMs = x.RetryBaseMs, x.TimeoutMs
	if x.OnError {
		h := k.host
		opts.OnError = func(info toolnexus.ErrorInfo) toolnexus.Tier {
			args := map[string]any{"client": client, "attempt": info.Attempt, "retryable": info.Retryable}
			if info.Status != 0 { // the port's 0 is "no status"
				args["status"] = info.Status
			}
			if info.Err != nil {
				args["error"] = info.Err.Error()
			}
			var tier string
			if _, err := h.call(slotOnError, args, &tier); err != nil {
				panic(err) // the port's OnError has no error to return
			}
			return toolnexus.Tier(tier)
		}
	}
	return nil
}
