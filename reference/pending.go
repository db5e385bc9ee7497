package toolnexus

import (
	"crypto/rand"
	"encoding/hex"
)

// Request is what a suspended tool asks for (§10). The JSON keys are wire data shared by
// every port, so they are spelled exactly as the SPEC pins them.
type Request struct {
	ID        string         `json:"id"`
	Kind      string         `json:"kind"`
	Prompt    string         `json:"prompt"`
	URL       string         `json:"url,omitempty"`
	Data      map[string]any `json:"data,omitempty"`
	ExpiresAt string         `json:"expiresAt,omitempty"`
}

// Answer resolves a Request; ID echoes the request's. Reason is advisory, set only when
// Ok is false.
type Answer struct {
	ID     string         `json:"id"`
	Ok     bool           `json:"ok"`
	Data   map[string]any `json:"data,omitempty"`
	Reason string         `json:"reason,omitempty"`
}

// Pending builds a suspension: an error result (it is no usable answer yet) whose
// metadata.pending is req, with the prompt (and URL) as the text a host without the
// suspension slot would show. An empty ID gets a random one, since the ID is the key
// the answer is matched on.
func Pending(req Request) ToolResult {
	if req.ID == "" {
		req.ID = newPendingID()
	}
	text := req.Prompt
	if req.URL != "" {
		text += "\n" + req.URL
	}
	return ToolResult{Output: text, IsError: true, Metadata: map[string]any{"pending": req}}
}

// PendingOf returns the Request a result suspends on, or nil when it is no suspension.
func PendingOf(res ToolResult) *Request {
	switch v := res.Metadata["pending"].(type) {
	case Request:
		return &v
	case *Request:
		return v
	}
	return nil
}

func newPendingID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return "pnd-" + hex.EncodeToString(b[:])
}
