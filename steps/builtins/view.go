package builtins

import (
	_ "embed"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/contract"
)

// World is the steps' view of an attempt in this area: the contract's (toolkits, MCP config,
// native tools), whose toolkit.create this area gives the builtins option.
type World struct{ contract.World }

// Area is the built-in tools, C13 (README.md beside this file).
func Area() kernel.Area {
	return kernel.Area{Name: "builtins", Protocol: protocol, Register: func(t *kernel.Steps) {
		registerBuiltinsSteps(t)
		registerRunSteps(t)
	}}
}

// protocol is the area's protocol fragment.
//
//go:embed protocol.json
var protocol []byte
