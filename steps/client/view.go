package client

import (
	_ "embed"
	"fmt"

	llmfake "github.com/muthuishere/toolnexus-conformance/fakes/llm"
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

// World is the steps' view of an attempt in this area; areas whose steps describe or run the
// client embed it.
type World struct{ common.View }

// State is the attempt's client state.
func (w *World) State() *State { return Of(w.A) }

// Of is the attempt's client state.
func Of(a *kernel.Attempt) *State { return kernel.Get[State](a) }

// Area is the client base every area's scenarios run: the fake LLM, client.create with what
// the areas added, client.run and client.ask (README.md beside this file).
func Area() kernel.Area {
	return kernel.Area{
		Name:     "client",
		Protocol: protocol,
		Register: registerClientSteps,
		Open: func() (any, func(), error) {
			fake, err := llmfake.Start()
			if err != nil {
				return nil, nil, err
			}
			return fake, fake.Close, nil
		},
		Witness: func(a *kernel.Attempt) []string {
			return []string{fmt.Sprintf("the fake LLM got %d requests", len(Of(a).Route.Requests()))}
		},
	}
}

// protocol is the area's protocol fragment.
//
//go:embed protocol.json
var protocol []byte

// EnsureClient sends client.create once, with everything the Given steps collected.
func EnsureClient(a *kernel.Attempt) error { return kernel.Get[World](a).EnsureClient() }

// Bodies are the LLM request bodies of the attempt, decoded.
func Bodies(a *kernel.Attempt) ([]map[string]any, error) { return kernel.Get[World](a).Bodies() }

// Body is LLM request n (counted from 1), decoded; an error when there is none.
func Body(a *kernel.Attempt, n int) (map[string]any, error) { return kernel.Get[World](a).Body(n) }

// LastResult is what the last client.run or client.ask that returned gave.
func LastResult(a *kernel.Attempt) (map[string]any, error) {
	rs := Of(a).Results
	if len(rs) == 0 {
		return nil, fmt.Errorf("harness: no run returned a result")
	}
	return rs[len(rs)-1], nil
}

// RequestCount checks how many requests the fake LLM received.
func RequestCount(a *kernel.Attempt, n int) error { return kernel.Get[World](a).requestCount(n) }

// RunWith is client.run with options other areas add (cancelAfterMs, id); a result is kept
// as every run's is.
func RunWith(a *kernel.Attempt, prompt, mode string, extra map[string]any) error {
	return kernel.Get[World](a).runWith(prompt, mode, extra)
}

// AskWith is client.ask on the given client (the scenario's, or another it made) with the
// options given; a result is kept as every run's is.
func AskWith(a *kernel.Attempt, client any, prompt string, opts map[string]any) error {
	return kernel.Get[World](a).call("client.ask", client, prompt, opts)
}
