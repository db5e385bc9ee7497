package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// SmokeOp is an op's smoke block (the "smoke" key of its entry in the fragment): the minimal
// valid request `conformance smoke` sends. Strings "$name" in Args are placeholders the smoke
// walk fills: "$llm" the fake LLM's base URL, "$mcp" the fake MCP server's URL, "$tmp" a
// scratch directory, any other "$name" a handle made by an op in Needs.
type SmokeOp struct {
	Args  map[string]any `json:"args"`
	Needs []string       `json:"needs,omitempty"` // ops that must have answered first
	// LLM are the fake LLM's replies scripted before the request (the fake's Reply fields).
	LLM []json.RawMessage `json:"llm,omitempty"`
	// Expect are result keys the answer must carry with these values when it succeeds.
	Expect map[string]any `json:"expect,omitempty"`
	// Last sends it after every other op: it ends a handle the others use.
	Last bool `json:"last,omitempty"`
}

// SmokeStep is one request of a slot's smoke run.
type SmokeStep struct {
	Op   string            `json:"op"`
	Args map[string]any    `json:"args"`
	LLM  []json.RawMessage `json:"llm,omitempty"`
}

// SmokeSlot is a slot's smoke block: the requests that make the adapter call it, and how the
// runner answers it. The slot is answered once each way: Return's value, an edit of the
// argument Edit names (absent: the slot takes no edit, SPEC.md §3's slot table), and a raise.
type SmokeSlot struct {
	Steps  []SmokeStep `json:"steps"`
	Return any         `json:"return"`
	// ReturnAfter, when set, answers the slot's later calls within one request (a suspending
	// tool suspends once, then returns).
	ReturnAfter json.RawMessage `json:"returnAfter,omitempty"`
	Edit        *SmokeEdit      `json:"edit,omitempty"`
}

// SmokeEdit is an edit answer: the callback's argument Arg with the keys Set set; with Wire,
// the fake LLM must see those keys in a request body.
type SmokeEdit struct {
	Arg  string         `json:"arg"`
	Set  map[string]any `json:"set"`
	Wire bool           `json:"wire,omitempty"`
}

// strictSmoke decodes a smoke block, refusing keys it does not know (a typo would silently
// smoke less).
func strictSmoke(where string, b json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("protocol fragment %s smoke: %w", where, err)
	}
	return nil
}

// SmokeOp is op's smoke block; false when its fragment has none.
func (p *Protocol) SmokeOp(op string) (SmokeOp, bool) {
	s, ok := p.smokeOps[op]
	return s, ok
}

// SmokeSlot is slot's smoke block; false when its fragment has none.
func (p *Protocol) SmokeSlot(slot string) (SmokeSlot, bool) {
	s, ok := p.smokeSlots[slot]
	return s, ok
}
