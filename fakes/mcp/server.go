package mcpfake

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolSpec is one fake tool; distinct schemas let scenarios check that a port
// reports each tool's own schema, not a shared or default one.
type toolSpec struct {
	name   string
	schema map[string]any
}

var toolSpecs = []toolSpec{
	{"a", objectSchema(map[string]any{"x": prop("string")}, "x")},
	{"b", objectSchema(map[string]any{"n": prop("integer")})},
	{"c", objectSchema(map[string]any{"flag": prop("boolean")})},
	// A dot in the original name: ports must sanitize it only after filtering.
	{"get.balance", objectSchema(map[string]any{"account": prop("string")})},
}

// ToolNames returns the fake server's tool names, in the order it lists them.
func ToolNames() []string {
	names := make([]string, len(toolSpecs))
	for i, t := range toolSpecs {
		names[i] = t.name
	}
	return names
}

func prop(typ string) map[string]any { return map[string]any{"type": typ} }

func objectSchema(props map[string]any, required ...string) map[string]any {
	s := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

// Schema returns the input schema the fake server declares for a tool, as a
// client decodes it from JSON (arrays are []any), or nil for an unknown name.
func Schema(name string) map[string]any {
	for _, t := range toolSpecs {
		if t.name == name {
			// A JSON round trip gives both a private copy and the decoded form
			// that compares equal to what a port reports.
			b, _ := json.Marshal(t.schema)
			var m map[string]any
			_ = json.Unmarshal(b, &m)
			return m
		}
	}
	return nil
}

// Description returns the description of a tool ("tool a", ...).
func Description(name string) string { return "tool " + name }

// NewServer returns the go-sdk server "fake-mcp" with the tools a, b, c and
// get.balance (CatalogueDefault). Each returns the text "<name>:ok", so a caller can tell
// which tool ran; arguments are not validated, since the suite judges what ports send to
// the LLM, not what they send to tools.
func NewServer() *mcp.Server {
	s, err := NewServerWith(ServerOptions{})
	if err != nil {
		panic(err) // the default catalogue always exists
	}
	return s
}
