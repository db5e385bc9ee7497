package resilience

import (
	_ "embed"
	"slices"
)

// facts is the area's part of a port's facts.json: "cancel".
//
//go:embed facts.json
var facts []byte

// cancelFact is what an external cancel of a run guarantees on the wire (upstream SPEC §7D's
// cancellation table): "mid-request" or "between-attempts", and, where the table's seam names
// them, the modes it covers (js: "AbortSignal on run/ask"; none: every mode).
type cancelFact struct {
	Guarantee string   `json:"guarantee"`
	Modes     []string `json:"modes,omitempty"`
	Fact      string   `json:"fact"`
}

// covers says whether the guarantee holds for a run in mode ("run" or "stream").
func (c cancelFact) covers(mode string) bool {
	return len(c.Modes) == 0 || slices.Contains(c.Modes, mode)
}
