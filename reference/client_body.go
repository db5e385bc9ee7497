package toolnexus

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// forbiddenParams are the body keys the client owns; letting a flat map
// replace them would silently break the tool loop (ADR 0001 answer A4).
var forbiddenParams = map[string]bool{"messages": true, "tools": true, "stream": true}

// toolParams only make sense beside a tools list: the caller's value is still sent (a
// RequestParams key wins, ADR 0001 gap 1), with a warning, since providers that reject
// "tools": [] reject these without one too (SPEC.md §1, G5.5).
var toolParams = map[string]bool{"tool_choice": true, "parallel_tool_calls": true}

// shapeBody runs the Gap 1 pipeline on a base body the hook has already fed:
// Gap 5 tools -> RequestParams merge -> BodyTransform -> JSON.
func (c *Client) shapeBody(body map[string]any, tools []any, addTools func(map[string]any, []any)) ([]byte, error) {
	// Gap 5: an empty tool list is sent as no key at all, never as [].
	if len(tools) > 0 {
		addTools(body, tools)
	}
	for _, k := range sortedKeys(c.opts.RequestParams) {
		if forbiddenParams[k] {
			Warnf("[toolnexus] requestParams key %q is not allowed — ignored (use BodyTransform)", k)
			continue
		}
		if toolParams[k] && len(tools) == 0 {
			Warnf("[toolnexus] requestParams key %q is sent although this request has no tools", k)
		}
		// Copied so that a transform editing a nested value cannot change
		// the caller's options for the next turn.
		body[k] = deepCopy(c.opts.RequestParams[k])
	}
	if c.opts.BodyTransform != nil {
		// The transform owns what it is given; a copy keeps the transcript
		// the loop carries to the next turn untouched by its edits.
		owned, _ := deepCopy(body).(map[string]any)
		body = owned
		if out := c.opts.BodyTransform(owned); out != nil {
			body = out
		}
	}
	return json.Marshal(body)
}

// deepCopy copies the JSON-like values a body is made of. Values of other
// types go through a JSON round trip: the copy may change Go type, never the
// bytes it marshals to.
func deepCopy(v any) any {
	switch x := v.(type) {
	case nil, string, bool, json.Number,
		float64, float32, int, int8, int16, int32, int64,
		uint, uint8, uint16, uint32, uint64:
		return x
	case map[string]any:
		if x == nil {
			return x
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		if x == nil {
			return x
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return v // json.Marshal of the body will report it
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // keeps numbers byte-identical on the wire
	var out any
	if err := dec.Decode(&out); err != nil {
		return v
	}
	return out
}

// retryable reports the statuses worth another attempt: rate limits and
// gateway or server trouble.
func retryable(status int) bool {
	switch status {
	case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// post sends one shaped body through the client's HTTP client, retrying failed attempts
// with the same bytes as OnError (or the default classifier) says, never more than Retries
// times. An abort (timeout, cancel) is returned at once. The caller owns the response body.
func (c *Client) post(ctx context.Context, url string, headers map[string]string, body []byte) (*http.Response, error) {
	retries := c.retries()
	classify := c.opts.OnError
	if classify == nil {
		classify = defaultTier
	}
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		for k, v := range c.opts.Headers {
			req.Header.Set(k, v)
		}
		resp, err := c.http.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			// Every failed attempt is classified, the last too (§8: "for each failed LLM attempt").
			if classify(ErrorInfo{Err: err, Attempt: attempt, Retryable: true}) != TierRetry || attempt >= retries {
				return nil, err
			}
			if err := c.pause(ctx, attempt, ""); err != nil {
				return nil, err
			}
			continue
		}
		if resp.StatusCode >= 200 && resp.StatusCode < 300 {
			return resp, nil
		}
		info := ErrorInfo{Status: resp.StatusCode, Attempt: attempt, Retryable: retryable(resp.StatusCode)}
		if classify(info) != TierRetry || attempt >= retries {
			msg, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
			resp.Body.Close()
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("toolnexus: LLM request to %s failed: HTTP %d: %s", url, resp.StatusCode, strings.TrimSpace(string(msg)))
		}
		// Several Retry-After lines are one field whose value is their list (RFC 9110 §5.3).
		wait := strings.Join(resp.Header.Values("Retry-After"), ", ")
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // lets the connection be reused
		resp.Body.Close()
		if err := c.pause(ctx, attempt, wait); err != nil {
			return nil, err
		}
	}
}

// defaultTier retries exactly the retryable failures.
func defaultTier(info ErrorInfo) Tier {
	if info.Retryable {
		return TierRetry
	}
	return TierFail
}

// retries is the retry budget: 0 means the default 2, a negative value none.
func (c *Client) retries() int {
	switch {
	case c.opts.Retries < 0:
		return 0
	case c.opts.Retries == 0:
		return 2
	}
	return c.opts.Retries
}

// maxRetryAfter is the largest delay-seconds honoured (§8: "0 … 2147483647").
const maxRetryAfter = 2147483647

// retryAfter is a Retry-After value's delay when it is delay-seconds in range: after
// trimming, ASCII digits only, at most maxRetryAfter.
func retryAfter(v string) (time.Duration, bool) {
	s := strings.TrimSpace(v)
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n > maxRetryAfter {
		return 0, false
	}
	return time.Duration(n) * time.Second, true
}

// pause waits before retry number attempt+1: the Retry-After header's delay when it has
// one, else exponential backoff with a little jitter.
func (c *Client) pause(ctx context.Context, attempt int, header string) error {
	base := c.opts.RetryBaseMs
	if base <= 0 {
		base = 500
	}
	d := time.Duration(base<<min(attempt, 16)+rand.IntN(100)) * time.Millisecond
	if ra, ok := retryAfter(header); ok {
		d = ra
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
