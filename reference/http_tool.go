package toolnexus

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// defaultHTTPToolTimeoutMs bounds one http tool call when neither the tool nor the call
// says otherwise (§7).
const defaultHTTPToolTimeoutMs = 30000

// HTTPToolOptions declares a remote endpoint as a tool (§7).
type HTTPToolOptions struct {
	Name        string
	Description string
	// Method is the HTTP method, in any case; "" means GET.
	Method string
	// URL may hold {name} placeholders, filled (and consumed) from the args.
	URL string
	// Headers are sent on every call; ${NAME} in a value expands from the environment.
	// Their values are never logged nor put in any result.
	Headers map[string]string
	// Query names the args sent in the query string instead of the body.
	Query []string
	// Body encodes the leftover args of a non-GET call: "json" (default), "form" or "raw".
	Body string
	// InputSchema describes the args; nil means the empty object schema.
	InputSchema JSONSchema
	// Timeout is in milliseconds; 0 means 30000. ToolContext.Timeout overrides it.
	Timeout int
	// ResultMode shapes a 2xx output: "text" (default), "json" or "status+text".
	ResultMode string
}

// httpToolClient is the http tools' own client, so a host's changes to
// http.DefaultClient do not reach them. Like every common client it follows redirects
// (C8.11); the per-call deadline comes from the request's context.
var httpToolClient = &http.Client{}

// HTTPTool wraps an HTTP endpoint as a Tool with source "http". Its Execute never
// returns a Go error: a transport failure or a timeout is an isError result the model
// can react to (C1.6).
func HTTPTool(opts HTTPToolOptions) Tool {
	schema := opts.InputSchema
	if schema == nil {
		schema = emptyObjectSchema()
	}
	return Tool{
		Name:        opts.Name,
		Description: opts.Description,
		InputSchema: schema,
		Source:      SourceHTTP,
		Execute: func(args map[string]any, tc *ToolContext) (ToolResult, error) {
			return runHTTPTool(opts, args, tc), nil
		},
	}
}

func runHTTPTool(opts HTTPToolOptions, args map[string]any, tc *ToolContext) ToolResult {
	method := strings.ToUpper(opts.Method)
	if method == "" {
		method = http.MethodGet
	}
	left := make(map[string]any, len(args)) // a copy, consumed as args are placed
	for k, v := range args {
		left[k] = v
	}
	endpoint := fillPlaceholders(opts.URL, left)
	inQuery := map[string]bool{}
	for _, q := range opts.Query {
		inQuery[q] = true
	}
	// A GET has no body, so its leftover args go to the query too (C8.4). Only GET: a
	// DELETE or any other method keeps its leftovers in the body, as upstream does.
	query := takeArgs(left, func(name string) bool { return inQuery[name] || method == http.MethodGet })
	endpoint = withQuery(endpoint, formValues(query))

	headers := ExpandEnvHeaders(opts.Headers)
	if headers == nil {
		headers = map[string]string{}
	}
	var body []byte
	// HEAD never carries a body; its leftover args are dropped, as upstream does.
	if method != http.MethodGet && method != http.MethodHead && len(left) > 0 {
		body = encodeHTTPBody(opts.Body, left, headers)
	}

	timeoutMs := httpTimeoutMs(opts.Timeout, tc)
	parent := callContext(tc)
	ctx, cancel := context.WithTimeout(parent, time.Duration(timeoutMs)*time.Millisecond)
	defer cancel()

	var reader io.Reader
	if body != nil {
		reader = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, endpoint, reader)
	if err != nil {
		return ToolResult{Output: err.Error(), IsError: true}
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := httpToolClient.Do(req)
	if err != nil {
		return httpFailure(err, ctx, parent, timeoutMs)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return httpFailure(err, ctx, parent, timeoutMs)
	}
	return httpResult(opts.ResultMode, resp.StatusCode, string(raw))
}

// httpTimeoutMs is the call's bound: the call's own, else the tool's, else the default.
func httpTimeoutMs(toolMs int, tc *ToolContext) int {
	switch {
	case tc != nil && tc.Timeout > 0:
		return tc.Timeout
	case toolMs > 0:
		return toolMs
	}
	return defaultHTTPToolTimeoutMs
}

// encodeHTTPBody encodes the leftover args in the tool's body mode, setting a
// Content-Type unless the tool's headers already give one.
func encodeHTTPBody(mode string, left map[string]any, headers map[string]string) []byte {
	contentType, body := "application/json", []byte(argText(left))
	switch mode {
	case "", "json":
	case "form":
		contentType, body = "application/x-www-form-urlencoded", []byte(formValues(left))
	default:
		// "raw" (and, as upstream, any other word): the `body` arg is the whole body, a
		// string as is and anything else as JSON text; other leftovers are not sent. The
		// type is what a fetch() of a string body sends.
		contentType, body = "text/plain;charset=UTF-8", []byte{}
		if v, ok := left["body"]; ok && v != nil {
			body = []byte(argText(v))
		}
	}
	for k := range headers {
		if strings.EqualFold(k, "Content-Type") {
			return body
		}
	}
	headers["Content-Type"] = contentType
	return body
}

// httpFailure is the result of a call that got no complete answer. The text names the
// timeout when the tool's own deadline ended the call; otherwise it is Go's error, which
// names the method and URL but never a header value.
func httpFailure(err error, ctx, parent context.Context, timeoutMs int) ToolResult {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) && parent.Err() == nil {
		return ToolResult{Output: fmt.Sprintf("HTTP request timed out after %d ms", timeoutMs), IsError: true}
	}
	return ToolResult{Output: err.Error(), IsError: true}
}

// httpResult maps an answered call: non-2xx is an error carrying the body (§7), 2xx is
// shaped by the result mode. Both carry the status as an int.
func httpResult(mode string, status int, text string) ToolResult {
	meta := map[string]any{"status": status}
	if status < 200 || status > 299 {
		return ToolResult{Output: fmt.Sprintf("HTTP %d: %s", status, text), IsError: true, Metadata: meta}
	}
	switch mode {
	case "status+text":
		text = fmt.Sprintf("%d\n%s", status, text)
	case "json":
		text = compactJSONInOrder(text)
	}
	return ToolResult{Output: text, Metadata: meta}
}
