package llm

import (
	"fmt"
	"github.com/muthuishere/toolnexus-conformance/steps/common"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"

	"github.com/cucumber/godog"
)

func registerShapingSteps(sc *kernel.Steps) {
	sc.Step(`^an? (openai|anthropic) client with request params:$`, (*World).aClientWithParams)
	sc.Step(`^the client has request params:$`, (*World).requestParams)
	sc.Step(`^a body transform that records what it sees$`, (*World).transformRecords)
	sc.Step(`^a body transform that deletes "([^"]*)" and sets "([^"]*)" to "([^"]*)"$`, (*World).transformDeleteSet)
	sc.Step(`^a body transform that appends "([^"]*)" to the last user message$`, (*World).transformAppend)
	sc.Step(`^a body transform that returns null$`, (*World).transformNull)
	sc.Step(`^a body transform that edits its input in place: it appends "([^"]*)" to the last user message and sets "([^"]*)" to "([^"]*)" inside "([^"]*)"$`, (*World).transformInPlace)
	sc.Step(`^a BeforeLLM hook that replaces the last user message with "([^"]*)"$`, (*World).hookReplaces)
	sc.Step(`^a BeforeLLM hook that returns an empty tool list$`, (*World).hookEmptyTools)
	sc.Step(`^a BeforeLLM hook that, on turn (\d+), returns only the tool "([^"]*)"$`, (*World).hookKeepsTool)
}

func (w *World) aClientWithParams(style string, doc *godog.DocString) error {
	if err := w.AClient(style); err != nil {
		return err
	}
	return w.requestParams(doc)
}

// setClient sets one of this area's client.create options.
func (w *World) setClient(key string, v any) error {
	return kernel.SetOption(w.A, "client.create", key, v)
}

func (w *World) requestParams(doc *godog.DocString) error {
	var m map[string]any
	if err := common.StepJSON(doc.Content, &m); err != nil {
		return fmt.Errorf("harness: request params are not a JSON object: %w", err)
	}
	return w.setClient("requestParams", m)
}

// transform is the body transform the scenario installs, made (and the option set) on first use.
func (w *World) transform() map[string]any {
	if w.llm().transform == nil {
		w.llm().transform = map[string]any{}
		_ = w.setClient("bodyTransform", true)
	}
	return w.llm().transform
}

func (w *World) transformRecords() error {
	if w.State().Client == nil {
		return fmt.Errorf("harness: body transform before a client")
	}
	w.transform()
	return nil
}

func (w *World) transformDeleteSet(del, key, val string) error {
	if err := w.transformRecords(); err != nil {
		return err
	}
	t := w.transform()
	t["delete"] = []any{del}
	t["set"] = map[string]any{key: val}
	return nil
}

func (w *World) transformAppend(suffix string) error {
	if err := w.transformRecords(); err != nil {
		return err
	}
	w.transform()["appendToLastUser"] = suffix
	return nil
}

// transformInPlace is the consumer's GLM rewrite (ADR A4/A6): it edits the very object it
// was given, a nested RequestParams value included, and returns that same object.
func (w *World) transformInPlace(suffix, key, val, in string) error {
	if err := w.transformRecords(); err != nil {
		return err
	}
	t := w.transform()
	t["inPlace"] = true
	t["appendToLastUser"] = suffix
	t["setNested"] = map[string]any{in: map[string]any{key: val}}
	return nil
}

func (w *World) transformNull() error {
	if err := w.transformRecords(); err != nil {
		return err
	}
	w.transform()["returnNull"] = true
	return nil
}

// hook is the BeforeLLM override the scenario installs, made (and the option set) on first use.
func (w *World) hook() map[string]any {
	if w.llm().hook == nil {
		w.llm().hook = map[string]any{}
		_ = w.setClient("beforeLLM", true)
	}
	return w.llm().hook
}

// InstallBeforeLLM installs the BeforeLLM hook with the override spec (setLastUserContent,
// onTurn, tools), for the hooks area's scenarios.
func InstallBeforeLLM(a *kernel.Attempt, spec map[string]any) error {
	Of(a).hook = spec
	return kernel.SetOption(a, "client.create", "beforeLLM", true)
}

func (w *World) hookReplaces(content string) error {
	if w.State().Client == nil {
		return fmt.Errorf("harness: hook before a client")
	}
	w.hook()["setLastUserContent"] = content
	return nil
}

func (w *World) hookEmptyTools() error {
	if w.State().Client == nil {
		return fmt.Errorf("harness: hook before a client")
	}
	w.hook()["tools"] = []any{}
	return nil
}

func (w *World) hookKeepsTool(turn int, name string) error {
	if w.State().Client == nil {
		return fmt.Errorf("harness: hook before a client")
	}
	w.hook()["keepTools"] = map[string]any{"turn": turn, "name": name}
	return nil
}
