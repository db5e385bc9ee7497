// Package schema holds the adapter protocol's JSON Schema and validates lines against it.
package schema

import (
	"bytes"
	_ "embed"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed protocol.schema.json
var protocolSchema []byte

const schemaURL = "https://toolnexus-conformance.invalid/protocol.schema.json"

// Protocol validates requests, responses and per-op results.
type Protocol struct {
	request  *jsonschema.Schema
	response *jsonschema.Schema
	results  map[string]*jsonschema.Schema
	callback *jsonschema.Schema
	answer   *jsonschema.Schema
}

// resultDefs names the result schema of each op; ops not listed return an empty object.
var resultDefs = map[string]string{
	"hello":            "result.hello",
	"client.run":       "result.run",
	"client.ask":       "result.run",
	"store.get":        "result.store.get",
	"store.identity":   "result.store.identity",
	"toolkit.create":   "result.tools",
	"mcp.load":         "result.tools",
	"mcp.list":         "result.mcp.list",
	"toolkit.describe": "result.describe",
	"tool.execute":     "result.execute",
	"adapters":         "result.adapters",
	"sanitize":         "result.sanitize",
}

// Load compiles the embedded protocol schema.
func Load() (*Protocol, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(protocolSchema))
	if err != nil {
		return nil, fmt.Errorf("protocol schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("protocol schema: %w", err)
	}
	compile := func(def string) (*jsonschema.Schema, error) {
		s, err := c.Compile(schemaURL + "#/$defs/" + def)
		if err != nil {
			return nil, fmt.Errorf("protocol schema %s: %w", def, err)
		}
		return s, nil
	}
	p := &Protocol{results: map[string]*jsonschema.Schema{}}
	if p.request, err = compile("request"); err != nil {
		return nil, err
	}
	if p.response, err = compile("response"); err != nil {
		return nil, err
	}
	for op, def := range resultDefs {
		if p.results[op], err = compile(def); err != nil {
			return nil, err
		}
	}
	if p.results[""], err = compile("result.empty"); err != nil {
		return nil, err
	}
	if p.callback, err = compile("callback"); err != nil {
		return nil, err
	}
	if p.answer, err = compile("callbackAnswer"); err != nil {
		return nil, err
	}
	return p, nil
}

// ValidateCallback checks one host-function callback line from an adapter.
func (p *Protocol) ValidateCallback(line []byte) error { return validate(p.callback, line) }

// ValidateAnswer checks the runner's answer to a callback.
func (p *Protocol) ValidateAnswer(line []byte) error { return validate(p.answer, line) }

// ValidateRequest checks one request line.
func (p *Protocol) ValidateRequest(line []byte) error { return validate(p.request, line) }

// ValidateResponse checks one response line and, when it is a success, its result for op.
func (p *Protocol) ValidateResponse(op string, line []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
	if err != nil {
		return fmt.Errorf("not JSON: %v", err)
	}
	if err := p.response.Validate(v); err != nil {
		return fmt.Errorf("%s", flatten(err))
	}
	m, _ := v.(map[string]any)
	if ok, _ := m["ok"].(bool); !ok {
		return nil
	}
	s := p.results[op]
	if s == nil {
		s = p.results[""]
	}
	if err := s.Validate(m["result"]); err != nil {
		return fmt.Errorf("result of %s: %s", op, flatten(err))
	}
	return nil
}

func validate(s *jsonschema.Schema, line []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
	if err != nil {
		return fmt.Errorf("not JSON: %v", err)
	}
	if err := s.Validate(v); err != nil {
		return fmt.Errorf("%s", flatten(err))
	}
	return nil
}

// flatten turns the validator's tree into one line fit for a report.
func flatten(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}
