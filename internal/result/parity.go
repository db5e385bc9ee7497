package result

// Parity is catalogue X.4 beyond its own scenarios: every contract scenario whose claim held
// on this port, its returned values against the reference's. It is shown, never a verdict:
// X.4 is recommended, and a differing value that breaks a claim is that claim's failure.
type Parity struct {
	// Golden is the reference's golden copy the values were compared with.
	Golden string `json:"golden"`
	// Compared counts the scenarios with values on both sides.
	Compared int          `json:"compared"`
	Differ   []ParityDiff `json:"differ,omitempty"`
}

// ParityDiff is one scenario whose returned values differ from the reference's.
type ParityDiff struct {
	Key      string `json:"key"` // Key.Stable
	Scenario string `json:"scenario"`
	Diff     string `json:"diff"` // -reference +port
}
