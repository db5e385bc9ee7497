package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// Error kinds of the protocol (schema: response.error.kind).
const (
	kindCancelled   = "cancelled"
	kindDeadline    = "deadline"
	kindInvalid     = "invalid"
	kindUnsupported = "unsupported"
	kindFailed      = "failed"
)

// opError is an error whose kind the adapter already knows (its own checks).
type opError struct {
	kind string
	msg  string
}

// Error returns the message as given.
func (e *opError) Error() string { return e.msg }

// unsupportedf reports an op or argument this adapter cannot express.
func unsupportedf(format string, args ...any) error {
	return &opError{kind: kindUnsupported, msg: fmt.Sprintf(format, args...)}
}

// configError marks an error from an op whose input is a config (MCP config,
// client options): there a rejection of the input is "invalid", which the
// library only tells us through its error text.
type configError struct{ err error }

// Error keeps the port's own text.
func (e *configError) Error() string { return e.err.Error() }

// Unwrap lets errors.Is still see the caller's cancellation.
func (e *configError) Unwrap() error { return e.err }

// asConfigError wraps err (when non-nil) so errorKind may classify it as invalid.
func asConfigError(err error) error {
	if err == nil {
		return nil
	}
	return &configError{err: err}
}

// invalidMarkers are phrases the library uses when it rejects a config or option.
var invalidMarkers = []string{
	"parse mcp config", "read mcp config", "unsupported mcp config",
	"invalid", "not supported", "unsupported", "unknown style", "no command",
}

// errorType names the library's error: the context sentinel it wraps (the fact the
// cancelled/deadline kinds rest on), else its dynamic Go type. The adapter's own errors
// have none.
func errorType(err error) string {
	var oe *opError
	switch {
	case errors.As(err, &oe):
		return ""
	case errors.Is(err, context.Canceled):
		return "context.Canceled"
	case errors.Is(err, context.DeadlineExceeded):
		return "context.DeadlineExceeded"
	}
	var ce *configError
	if errors.As(err, &ce) {
		err = ce.err
	}
	return fmt.Sprintf("%T", err)
}

// errorKind maps an error to a protocol kind. The caller's cancellation wins
// over everything, because the library wraps ctx.Err() in its own messages.
func errorKind(err error) string {
	var oe *opError
	switch {
	case errors.As(err, &oe):
		return oe.kind
	case errors.Is(err, context.Canceled):
		return kindCancelled
	case errors.Is(err, context.DeadlineExceeded):
		return kindDeadline
	}
	var ce *configError
	if errors.As(err, &ce) && looksInvalid(ce.err) {
		return kindInvalid
	}
	// A client rejects a bad option when it is first used (Run/Ask/Stream),
	// naming the option's field; that is still a rejected input.
	if strings.Contains(err.Error(), "ClientOptions.") {
		return kindInvalid
	}
	return kindFailed
}

// looksInvalid tells a rejected input from a failure while doing the work.
func looksInvalid(err error) bool {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var pe *fs.PathError
	if errors.As(err, &syn) || errors.As(err, &typ) || errors.As(err, &pe) {
		return true
	}
	msg := strings.ToLower(err.Error())
	for _, m := range invalidMarkers {
		if strings.Contains(msg, m) {
			return true
		}
	}
	return false
}
