package skills

import (
	_ "embed"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/contract"
)

// World is the steps' view of an attempt in this area: the contract's, whose toolkit and
// tool.execute steps the skill tool is judged through.
type World struct{ contract.World }

func (w *World) sk() *State { return kernel.Get[State](w.A) }

// Area is the skill source (README.md beside this file).
func Area() kernel.Area {
	return kernel.Area{Name: "skills", Protocol: protocol, Register: registerSkillsSteps, CheckStep: checkTreeStep}
}

// protocol is the area's protocol fragment.
//
//go:embed protocol.json
var protocol []byte
