package contract

import (
	"fmt"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/client"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

// What a host tool was given during the last run: its execute calls back contract.tool,
// whose calls the kernel records per request.

func registerHostRanSteps(sc *kernel.Steps) {
	sc.Step(`^the tool "([^"]*)" never ran$`, (*World).hostToolNeverRan)
	sc.Step(`^the tool "([^"]*)" ran once, with the arguments (\{.*\})$`, (*World).hostToolRanWith)
}

// hostToolInputs are the inputs the host tool name got during the last run that returned.
func (w *World) hostToolInputs(name string) ([]any, error) {
	ran := client.RanRequests(w.A)
	if len(ran) == 0 {
		return nil, fmt.Errorf("harness: no run returned")
	}
	var inputs []any
	for _, c := range ran[len(ran)-1].Slots {
		if c.Slot == "contract.tool" {
			if args := c.Decode(); args["name"] == name {
				inputs = append(inputs, args["input"])
			}
		}
	}
	return inputs, nil
}

func (w *World) hostToolNeverRan(name string) error {
	inputs, err := w.hostToolInputs(name)
	if err != nil {
		return err
	}
	if len(inputs) > 0 {
		return fmt.Errorf("the tool %q ran %d times: %s", name, len(inputs), common.CompactJSON(inputs))
	}
	return nil
}

func (w *World) hostToolRanWith(name, raw string) error {
	inputs, err := w.hostToolInputs(name)
	if err != nil {
		return err
	}
	if len(inputs) != 1 {
		return fmt.Errorf("the tool %q ran %d times; want once: %s", name, len(inputs), common.CompactJSON(inputs))
	}
	return common.SameJSON(fmt.Sprintf("the arguments %q ran with", name), raw, inputs[0])
}
