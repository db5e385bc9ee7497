package result

// Key names one scenario across runs: its stable ID (@id:) and, for an outline, the example
// row's cells joined by " | ". Feature and Name are for people: a reworded title keeps
// the same Stable key, so expectations keep matching.
type Key struct {
	ID, Row       string
	Feature, Name string
}

func (k Key) String() string {
	s := k.Feature + ": " + k.Name
	if k.Row != "" {
		s += " [" + k.Row + "]"
	}
	return s
}

// Stable is what identifies the scenario: "<id>" or "<id> [<row>]" (a key without an id,
// from results read without their features, falls back to its title).
func (k Key) Stable() string {
	id := k.ID
	if id == "" {
		id = k.Feature + ": " + k.Name
	}
	if k.Row == "" {
		return id
	}
	return id + " [" + k.Row + "]"
}

// Level says whether a scenario's failure fails a port: required rules are stated by ADR 0001
// (its answers A1-A9) or the upstream SPEC; recommended ones are our argued reading where the
// ADR is silent (SPEC.md §1), shown as advice and never a port's failure.
type Level string

// Levels.
const (
	Required    Level = "required"
	Recommended Level = "recommended"
)
