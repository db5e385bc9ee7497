package calls

import (
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

// World is the steps' view of an attempt in this area.
type World struct{ common.View }

// Area is what every call's outcome is judged on (README.md beside this file).
func Area() kernel.Area {
	return kernel.Area{Name: "calls", Register: registerOutcomeSteps, Facts: facts}
}
