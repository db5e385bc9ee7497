package toolnexus

import (
	"encoding/json"
	"fmt"
	"math"
	"time"
)

// Argument readers for the builtins. Args arrive decoded from JSON, so a number is a
// float64, or a json.Number when the caller decoded with UseNumber (the client does);
// both are read. A wrong type is an error the tool reports as its result, never a panic.
// An explicit JSON null counts as absent.

// argKind names a value's JSON type for messages.
func argKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64, float32, int, int64, int32, json.Number:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// strArg reads a string; required means absent is an error (an empty string is allowed).
func strArg(args map[string]any, key string, required bool) (string, error) {
	v, ok := args[key]
	if !ok || v == nil {
		if required {
			return "", fmt.Errorf("%q is required", key)
		}
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%q must be a string, got %s", key, argKind(v))
	}
	return s, nil
}

// boolArg reads an optional boolean (absent is false).
func boolArg(args map[string]any, key string) (bool, error) {
	v, ok := args[key]
	if !ok || v == nil {
		return false, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("%q must be a boolean, got %s", key, argKind(v))
	}
	return b, nil
}

// numArg reads an optional finite number; found is false when it is absent.
func numArg(args map[string]any, key string) (n float64, found bool, err error) {
	v, ok := args[key]
	if !ok || v == nil {
		return 0, false, nil
	}
	switch x := v.(type) {
	case float64:
		n = x
	case float32:
		n = float64(x)
	case int:
		n = float64(x)
	case int64:
		n = float64(x)
	case int32:
		n = float64(x)
	case json.Number:
		if n, err = x.Float64(); err != nil {
			return 0, false, fmt.Errorf("%q must be a number, got %q", key, x.String())
		}
	default:
		return 0, false, fmt.Errorf("%q must be a number, got %s", key, argKind(v))
	}
	if math.IsNaN(n) || math.IsInf(n, 0) {
		return 0, false, fmt.Errorf("%q must be a finite number", key)
	}
	return n, true, nil
}

// countArg reads an optional whole number of at least 1 (a line, a line count, a match
// cap); def is used when it is absent.
func countArg(args map[string]any, key string, def int) (int, error) {
	n, found, err := numArg(args, key)
	if err != nil || !found {
		return def, err
	}
	if n != math.Trunc(n) || n < 1 || n > math.MaxInt32 {
		return 0, fmt.Errorf("%q must be a whole number of at least 1, got %v", key, n)
	}
	return int(n), nil
}

// durationArg reads an optional positive timeout in the given unit. Absent, it falls back
// to the call's ToolContext.Timeout (ms), then to def.
func durationArg(args map[string]any, key string, unit time.Duration, def time.Duration, tc *ToolContext) (time.Duration, error) {
	n, found, err := numArg(args, key)
	if err != nil {
		return 0, err
	}
	if !found {
		if tc != nil && tc.Timeout > 0 {
			return time.Duration(tc.Timeout) * time.Millisecond, nil
		}
		return def, nil
	}
	if n <= 0 {
		return 0, fmt.Errorf("%q must be a positive number, got %v", key, n)
	}
	ns := n * float64(unit)
	if ns >= math.MaxInt64 {
		return time.Duration(math.MaxInt64), nil // converting a larger float is undefined
	}
	return max(time.Duration(ns), 1), nil
}

// anySlice reads an array argument. Decoded JSON gives []any; a Go caller's typed slice
// (say []map[string]any) is brought to that shape through JSON, so one reader serves both.
func anySlice(v any) ([]any, bool) {
	switch x := v.(type) {
	case []any:
		return x, true
	case nil, string, bool, float64, json.Number, map[string]any:
		return nil, false
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	var out []any
	if json.Unmarshal(data, &out) != nil || out == nil {
		return nil, false
	}
	return out, true
}
