package parity

import (
	"fmt"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
	"strings"

	llmfake "github.com/muthuishere/toolnexus-conformance/fakes/llm"
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/internal/wire"
	"github.com/muthuishere/toolnexus-conformance/steps/client"
)

// X.5, the shared-example run: upstream's examples (an MCP config and a skills folder) as
// our own fixtures, one scripted conversation, and every body against the reference's.
func registerExampleSteps(sc *kernel.Steps) {
	sc.Step(`^the fake LLM calls the tool "([^"]*)" with (\{.*\}), then the tool "([^"]*)" with (\{.*\}), and then answers "([^"]*)"$`, (*World).twoCallsThenText)
	sc.Step(`^the wire bodies, the scenario's folder written <dir>, match the golden copy "([^"]*)"$`, (*World).matchGoldenInDir)
}

func (w *World) twoCallsThenText(a, rawA, b, rawB, text string) error {
	var argsA, argsB map[string]any
	if err := common.StepJSON(rawA, &argsA); err != nil {
		return fmt.Errorf("harness: %s is not a JSON object: %w", rawA, err)
	}
	if err := common.StepJSON(rawB, &argsB); err != nil {
		return fmt.Errorf("harness: %s is not a JSON object: %w", rawB, err)
	}
	client.Of(w.A).Route.Script(
		llmfake.Reply{ToolCalls: []llmfake.ToolCall{{Name: a, Args: argsA}}},
		llmfake.Reply{ToolCalls: []llmfake.ToolCall{{Name: b, Args: argsB}}},
		llmfake.Reply{Text: text})
	return nil
}

// matchGoldenInDir is matchGolden where the bodies name files under the scenario's own
// folder (a skill's location), which differs per attempt: the folder is written <dir>.
func (w *World) matchGoldenInDir(name string) error {
	bodies, err := client.Bodies(w.A)
	if err != nil {
		return err
	}
	got := wire.NormalizeAll(bodies)
	for i := range got {
		got[i], _ = inDir(got[i], w.A.Dir()).(map[string]any)
	}
	var want []map[string]any
	if done, err := w.GoldenCopy(name, got, &want); done || err != nil {
		return err
	}
	return Diff("the wire bodies differ", name, w.Env().Family, wire.NormalizeAll(want), got)
}

func inDir(v any, dir string) any {
	switch t := v.(type) {
	case map[string]any:
		for k, c := range t {
			t[k] = inDir(c, dir)
		}
	case []any:
		for i, c := range t {
			t[i] = inDir(c, dir)
		}
	case string:
		return strings.ReplaceAll(t, dir, "<dir>")
	}
	return v
}
