package result

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
)

// The fingerprint of a failure is a short hash of its message with everything that varies
// between runs of the same failure taken out: the adapter's stderr tail, URLs, absolute paths
// and every word holding a digit (numbers, durations, ports, pids, ids, temp names). Whitespace
// is collapsed (go-cmp varies its spaces on purpose; its diffs are hashed as the values they
// compare, Outcome.Stable). The same failure gives the same fingerprint on every run; a
// different assertion, key set, kind or message gives another.
var (
	fpURL   = regexp.MustCompile(`[a-z]+://[^\s"')\]]+`)
	fpPath  = regexp.MustCompile(`(?:/[\w.@+\-]+){2,}/?`)
	fpDigit = regexp.MustCompile(`[\w.:\-]*[0-9][\w.:\-]*`)
)

// stderrMarker starts the adapter stderr tail an adapter break appends to its message.
const stderrMarker = "--- adapter stderr"

// Fingerprint is the failure's stable 10-hex-digit fingerprint.
func Fingerprint(message string) string {
	sum := sha256.Sum256([]byte(normalizeFailure(message)))
	return hex.EncodeToString(sum[:])[:10]
}

// normalizeFailure is the message with its volatile parts stripped (see above).
func normalizeFailure(message string) string {
	if i := strings.Index(message, stderrMarker); i >= 0 {
		message = message[:i]
	}
	message = fpURL.ReplaceAllString(message, "<url>")
	message = fpPath.ReplaceAllString(message, "<path>")
	message = fpDigit.ReplaceAllString(message, "#")
	return strings.Join(strings.Fields(message), " ")
}

// Evidence is the failure message on one line, clipped, without the stderr tail: what an
// expectation entry keeps for a person to compare.
func Evidence(message string) string {
	if i := strings.Index(message, stderrMarker); i >= 0 {
		message = message[:i]
	}
	s := strings.Join(strings.Fields(message), " ")
	if r := []rune(s); len(r) > 300 {
		s = string(r[:300]) + "…"
	}
	return s
}
