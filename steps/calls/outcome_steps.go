package calls

import (
	"fmt"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

func registerOutcomeSteps(sc *kernel.Steps) {
	sc.Step(`^the call succeeds$`, common.CallSucceeds)
	sc.Step(`^the call fails with kind "([^"]*)"$`, (*World).callFailsWith)
	sc.Step(`^the call fails with this port's deadline error$`, (*World).callFailsWithDeadline)
	sc.Step(`^the warnings name "([^"]*)"$`, (*World).warningsName)
	sc.Step(`^no warning names "([^"]*)"$`, (*World).noWarningNames)
}

func (w *World) callFailsWith(kind string) error {
	if w.Last() == nil {
		return fmt.Errorf("harness: no call was made")
	}
	if w.Last().OK {
		return fmt.Errorf("%s succeeded; want an error of kind %q (result %v)", w.LastOp(), kind, w.Last().Result)
	}
	if w.Last().Error.Kind != kind {
		return fmt.Errorf("%s failed with kind %q (%s); want %q", w.LastOp(), w.Last().Error.Kind, w.Last().Error.Message, kind)
	}
	return nil
}

func (w *World) warningsName(word string) error {
	for _, l := range w.A.Warnings() {
		if strings.Contains(l, `"`+word+`"`) || strings.Contains(l, "'"+word+"'") {
			return nil
		}
	}
	return fmt.Errorf("no warning names %q; warnings were: %q", word, w.A.Warnings())
}

func (w *World) noWarningNames(word string) error {
	for _, l := range w.A.Warnings() {
		if strings.Contains(l, word) {
			return fmt.Errorf("a warning names %q: %q", word, l)
		}
	}
	return nil
}
