package conformance

import (
	_ "embed"
	"strings"
)

// version is the release this tree is, declared once in VERSION: a build prints it with its
// commit (cmd/conformance version), and pushing the tag it names publishes it (CHANGELOG.md).
//
//go:embed VERSION
var version string

// Version is the harness release this source declares, e.g. "v0.3.0".
func Version() string { return strings.TrimSpace(version) }
