package suite

import (
	"io"

	"github.com/cucumber/godog"
	"github.com/cucumber/godog/formatters"
	messages "github.com/cucumber/messages/go/v34"
)

// silentFormat is the godog formatter of a run without a report dir: it keeps nothing.
const silentFormat = "conformance-silent"

func init() {
	godog.Format(silentFormat, "reports nothing (the runner judges from its own outcomes)",
		func(string, io.Writer) formatters.Formatter { return silent{} })
}

// silent is a godog formatter that ignores every event.
type silent struct{}

func (silent) TestRunStarted()                                                            {}
func (silent) Feature(*messages.GherkinDocument, string, []byte)                          {}
func (silent) Pickle(*messages.Pickle)                                                    {}
func (silent) Defined(*messages.Pickle, *messages.PickleStep, *formatters.StepDefinition) {}
func (silent) Failed(*messages.Pickle, *messages.PickleStep, *formatters.StepDefinition, error) {
}
func (silent) Passed(*messages.Pickle, *messages.PickleStep, *formatters.StepDefinition)    {}
func (silent) Skipped(*messages.Pickle, *messages.PickleStep, *formatters.StepDefinition)   {}
func (silent) Undefined(*messages.Pickle, *messages.PickleStep, *formatters.StepDefinition) {}
func (silent) Pending(*messages.Pickle, *messages.PickleStep, *formatters.StepDefinition)   {}
func (silent) Ambiguous(*messages.Pickle, *messages.PickleStep, *formatters.StepDefinition, error) {
}
func (silent) Summary() {}
