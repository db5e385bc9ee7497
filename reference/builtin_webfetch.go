package toolnexus

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

const (
	defaultWebfetchTimeout = 30 * time.Second
	// webfetchMaxBody caps what is read: a model asking for a huge download gets an error,
	// not a process that runs out of memory.
	webfetchMaxBody = 5 << 20
)

// webfetchClient is webfetch's own client, as the http tools have theirs, so a host's
// changes to http.DefaultClient do not reach it. It follows redirects (Go's default); the
// deadline comes from the request's context.
var webfetchClient = &http.Client{}

func webfetchTool() Tool {
	return builtinTool("webfetch",
		"Fetch a URL with HTTP GET and return the body as markdown (default), plain text or raw HTML.",
		objectSchema(map[string]any{
			"url": prop("string", "The http(s) URL to fetch"),
			"format": map[string]any{"type": "string", "enum": []string{"text", "markdown", "html"},
				"description": "How to return an HTML body (default markdown)"},
			"timeout": prop("number", "Seconds to wait for the answer; 30 when absent"),
		}, "url"),
		runWebfetch)
}

func runWebfetch(args map[string]any, tc *ToolContext) ToolResult {
	raw, err := strArg(args, "url", true)
	if err != nil {
		return failf("webfetch: %v", err)
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return failf("webfetch: %q is not an http(s) URL", raw)
	}
	format, err := strArg(args, "format", false)
	if err != nil {
		return failf("webfetch: %v", err)
	}
	switch format {
	case "":
		format = "markdown"
	case "text", "markdown", "html":
	default:
		return failf("webfetch: \"format\" must be text, markdown or html, got %q", format)
	}
	limit, err := durationArg(args, "timeout", time.Second, defaultWebfetchTimeout, tc)
	if err != nil {
		return failf("webfetch: %v", err)
	}

	parent := callContext(tc)
	ctx, cancel := context.WithTimeout(parent, limit)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return failf("webfetch: %v", err)
	}
	req.Header.Set("Accept", "text/html, text/plain;q=0.9, */*;q=0.8")
	resp, err := webfetchClient.Do(req)
	if err != nil {
		return webfetchFailure(err, ctx, parent, limit)
	}
	defer resp.Body.Close()
	meta := map[string]any{"status": resp.StatusCode}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		// Exactly "HTTP <status>", the text every port gives (§4A).
		return ToolResult{Output: fmt.Sprintf("HTTP %d", resp.StatusCode), IsError: true, Metadata: meta}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, webfetchMaxBody+1))
	if err != nil {
		return webfetchFailure(err, ctx, parent, limit)
	}
	if len(body) > webfetchMaxBody {
		return ToolResult{Output: fmt.Sprintf("webfetch: response is larger than %d bytes", webfetchMaxBody), IsError: true, Metadata: meta}
	}
	meta["format"] = format
	text := string(body)
	// Only HTML is converted; a JSON or plain-text answer is returned as sent, since
	// stripping "tags" from it could only damage it. No Content-Type at all is taken as HTML.
	if ct := resp.Header.Get("Content-Type"); format != "html" && (ct == "" || strings.Contains(strings.ToLower(ct), "html")) {
		text = htmlToText(text, format == "markdown")
	}
	return ToolResult{Output: text, Metadata: meta}
}

func webfetchFailure(err error, ctx, parent context.Context, limit time.Duration) ToolResult {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) && parent.Err() == nil {
		return failf("webfetch: request timed out after %v", limit)
	}
	return failf("webfetch: %v", err)
}
