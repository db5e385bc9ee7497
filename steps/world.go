// Package steps holds the godog step definitions. Steps speak only the adapter protocol and
// read what the fakes recorded; the kernel (internal/kernel) runs them, and each area keeps
// its state in its own struct, created fresh for every attempt on first use.
package steps

import (
	"github.com/muthuishere/toolnexus-conformance/fakes/llm"
	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

// World is the steps' view of one attempt: the kernel's attempt, and each area's state
// through an accessor (created on first use, fresh per attempt).
type World struct{ a *kernel.Attempt }

// Init is kernel.State's: the World of an attempt knows that attempt.
func (w *World) Init(a *kernel.Attempt) { w.a = a }

func (w *World) llm() *llmState          { return kernel.Get[llmState](w.a) }
func (w *World) tk() *common.Toolkits    { return common.TK(w.a) }
func (w *World) ct() *contractState      { return kernel.Get[contractState](w.a) }
func (w *World) mcp() *mcpState          { return kernel.Get[mcpState](w.a) }
func (w *World) stalls() *stallState     { return kernel.Get[stallState](w.a) }
func (w *World) store() *storeState      { return kernel.Get[storeState](w.a) }
func (w *World) parity() *parityState    { return kernel.Get[parityState](w.a) }
func (w *World) env() *kernel.Env        { return w.a.Env() }
func (w *World) last() *adapter.Response { r, _ := w.a.Last(); return r }
func (w *World) lastOp() string          { _, op := w.a.Last(); return op }

// call, must and callBounded are the kernel's calls.
func (w *World) call(op string, args map[string]any) (*adapter.Response, error) {
	return w.a.Call(op, args)
}

func (w *World) must(op string, args map[string]any) (map[string]any, error) {
	return w.a.Must(op, args)
}

// handle names an adapter object uniquely for this run.
func (w *World) handle(kind string) string { return w.a.Handle(kind) }

// Library is the step library handed to the engine (cmd/conformance wires it in).
func Library() kernel.Library {
	return kernel.Library{{
		Name:     "contract",
		Register: registerAll,
		Slots: map[string]kernel.SlotFunc{
			"bodyTransform": slotBodyTransform,
			"beforeLLM":     slotBeforeLLM,
			"http":          slotHTTP,
			"tool":          slotTool,
		},
		Open: func() (any, func(), error) {
			fake, err := llm.Start()
			if err != nil {
				return nil, nil, err
			}
			return fake, fake.Close, nil
		},
		Witness: witness,
		Warm:    warm,
	}}
}

// Returned is X.4's values of an attempt (parity_returned.go).
func Returned(a *kernel.Attempt, tags []string) any {
	return kernel.Get[World](a).parityValues(tags)
}

// registerAll binds every step definition.
func registerAll(t *kernel.Steps) {
	registerClientSteps(t)
	registerBodySteps(t)
	registerMCPSteps(t)
	registerMCPPhaseSteps(t)
	registerHeaderSteps(t)
	registerStoreSteps(t)
	registerOutcomeSteps(t)
	registerTimingSteps(t)
	registerGoldenSteps(t)
	registerBaselineSteps(t)
	registerBlindSpotSteps(t)
	registerContractToolSteps(t)
	registerContractRunSteps(t)
	registerContractAdapterSteps(t)
	registerContractConfigSteps(t)
	registerContractMCPSteps(t)
	registerContractHTTPSteps(t)
	registerContractServerSteps(t)
	registerContractBuiltinSteps(t)
}
