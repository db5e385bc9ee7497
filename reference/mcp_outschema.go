package toolnexus

import (
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

// mcpOutputSchema checks a tool's structured results against the outputSchema it listed, as
// the MCP specification asks clients to. The go-sdk client does not, so the reference does.
type mcpOutputSchema struct {
	resolved *jsonschema.Resolved
}

// compileMcpOutputSchema prepares a listed outputSchema; nil means nothing to check. A
// schema the validator cannot use (another draft, a remote $ref) is warned about once and
// not checked, rather than failing every call.
func compileMcpOutputSchema(server, tool string, schema any) *mcpOutputSchema {
	if schema == nil {
		return nil
	}
	data, err := json.Marshal(schema)
	if err != nil {
		Warnf("[toolnexus] MCP server %q tool %q: outputSchema is not JSON (%v); results are not checked", server, tool, err)
		return nil
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		Warnf("[toolnexus] MCP server %q tool %q: outputSchema is not a schema (%v); results are not checked", server, tool, err)
		return nil
	}
	switch s.Schema {
	case "", "http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2020-12/schema":
	default:
		Warnf("[toolnexus] MCP server %q tool %q: outputSchema dialect %q is not supported; results are not checked", server, tool, s.Schema)
		return nil
	}
	resolved, err := s.Resolve(nil)
	if err != nil {
		Warnf("[toolnexus] MCP server %q tool %q: outputSchema cannot be used (%v); results are not checked", server, tool, err)
		return nil
	}
	return &mcpOutputSchema{resolved: resolved}
}

// check reports why a result breaks the schema: structured content that does not match,
// or none at all from a successful call (both as the upstream reference's SDK reports).
func (o *mcpOutputSchema) check(tool string, structured any) error {
	if o == nil {
		return nil
	}
	if structured == nil {
		return fmt.Errorf("Tool %s has an output schema but did not return structured content", tool)
	}
	if err := o.resolved.Validate(structured); err != nil {
		return fmt.Errorf("Structured content does not match the tool's output schema: %v", err)
	}
	return nil
}
