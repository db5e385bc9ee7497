package schema

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// portSchema is the schema of runners/<port>/port.json; it decides no verdict, so the suite
// version leaves it out (internal/suite/versions.go).
//
//go:embed port.schema.json
var portSchema []byte

const portSchemaURL = "https://toolnexus-conformance.invalid/port.schema.json"

var portCompiled struct {
	once sync.Once
	s    *jsonschema.Schema
	err  error
}

// ValidatePort checks one port manifest's bytes; the error lists every violation on one line,
// each with its JSON pointer ("at '/checkout': missing property 'dir'").
func ValidatePort(b []byte) error {
	portCompiled.once.Do(func() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(portSchema))
		if err != nil {
			portCompiled.err = fmt.Errorf("port schema: %w", err)
			return
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource(portSchemaURL, doc); err != nil {
			portCompiled.err = fmt.Errorf("port schema: %w", err)
			return
		}
		portCompiled.s, portCompiled.err = c.Compile(portSchemaURL)
	})
	if portCompiled.err != nil {
		return portCompiled.err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("not JSON: %v", err)
	}
	err = portCompiled.s.Validate(v)
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		return errors.New(strings.Join(leaves(ve), "; "))
	}
	return err
}

// leaves are the violations themselves, without the "failed with" and $ref levels above them.
func leaves(ve *jsonschema.ValidationError) []string {
	if len(ve.Causes) == 0 {
		return []string{strings.Join(strings.Fields(ve.Error()), " ")}
	}
	var out []string
	for _, c := range ve.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}
