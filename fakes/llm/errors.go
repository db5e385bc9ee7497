package llm

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
)

// writeError answers with an error body shaped like the real API's, so client
// libraries surface the message instead of a parse failure.
func writeError(w http.ResponseWriter, style string, status int, msg string) {
	writeJSON(w, status, errorBody(style, status, msg))
}

// errorBody is the real API's error object for a style.
func errorBody(style string, status int, msg string) map[string]any {
	if style == StyleAnthropic {
		return map[string]any{
			"type":  "error",
			"error": map[string]any{"type": anthropicErrorType(status), "message": msg},
		}
	}
	return map[string]any{
		"error": map[string]any{"message": msg, "type": "fake_error", "param": nil, "code": strconv.Itoa(status)},
	}
}

func anthropicErrorType(status int) string {
	switch status {
	case http.StatusBadRequest:
		return "invalid_request_error"
	case http.StatusUnauthorized:
		return "authentication_error"
	case http.StatusNotFound:
		return "not_found_error"
	case http.StatusTooManyRequests:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	}
	return "api_error"
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b := mustJSON(v)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("llm fake: marshal answer: %v", err)) // our own values; cannot happen
	}
	return b
}
