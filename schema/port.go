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

// folderSchema is one schema of a port folder's files, compiled on first use.
type folderSchema struct {
	name, url string
	doc       []byte
	once      sync.Once
	s         *jsonschema.Schema
	err       error
}

var portCompiled = &folderSchema{name: "port", url: "https://toolnexus-conformance.invalid/port.schema.json", doc: portSchema}

// ValidatePort checks one port manifest's bytes; the error lists every violation on one line,
// each with its JSON pointer ("at '/checkout': missing property 'dir'").
func ValidatePort(b []byte) error { return portCompiled.validate(b) }

func (f *folderSchema) validate(b []byte) error {
	f.once.Do(func() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(f.doc))
		if err != nil {
			f.err = fmt.Errorf("%s schema: %w", f.name, err)
			return
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource(f.url, doc); err != nil {
			f.err = fmt.Errorf("%s schema: %w", f.name, err)
			return
		}
		f.s, f.err = c.Compile(f.url)
	})
	if f.err != nil {
		return f.err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("not JSON: %v", err)
	}
	err = f.s.Validate(v)
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
