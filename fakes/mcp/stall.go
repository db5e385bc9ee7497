package mcpfake

import (
	"bytes"
	"io"
	"net/http"
	"slices"
	"sync/atomic"
)

// MCP phases a fake can stall in. A stalled fake never answers that request: only the
// client's own timeout, its caller's cancel or deadline, or closing the fake ends the wait.
const (
	PhaseInitialize = "initialize"
	PhaseToolsList  = "tools/list"
)

// ValidPhase reports whether p names a phase a fake can stall in ("" = none).
func ValidPhase(p string) bool { return p == "" || p == PhaseInitialize || p == PhaseToolsList }

// stallHTTP wraps an MCP HTTP handler: a POST carrying a JSON-RPC request of phase method is
// held open, unanswered, until the client goes away or the server closes. Every other
// request passes through, so the phases before method complete normally; a tools/list that
// passes is counted in listed.
func stallHTTP(method string, hits, listed *atomic.Int64, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, 4<<20))
		if err != nil {
			http.Error(w, "reading body: "+err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if method != "" && carriesMethod(body, method) {
			hits.Add(1)
			<-r.Context().Done()
			return
		}
		if carriesMethod(body, PhaseToolsList) {
			listed.Add(1)
		}
		next.ServeHTTP(w, r)
	})
}

// phaseMethods are the JSON-RPC methods of a phase: the handshake is "initialize", or
// "server/discover" for clients speaking the 2026-07-28 protocol (SEP-2575).
var phaseMethods = map[string][]string{
	PhaseInitialize: {"initialize", "server/discover"},
	PhaseToolsList:  {"tools/list"},
}

// carriesMethod reports whether a JSON-RPC message (or batch) in body belongs to phase.
func carriesMethod(body []byte, phase string) bool {
	return slices.ContainsFunc(rpcMethods(body), func(m string) bool { return slices.Contains(phaseMethods[phase], m) })
}
