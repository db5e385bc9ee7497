// Package steps is the step library's registry: the areas of the contract, one line each,
// in the order their steps are registered. Each area is a folder beside this file
// (steps/<area>/) with its features (features/<area>/) and fixtures (fixtures/<area>/); the
// kernel (internal/kernel) runs them, and cmd/conformance hands this library to the engine.
package steps

import (
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/builtins"
	"github.com/muthuishere/toolnexus-conformance/steps/calls"
	"github.com/muthuishere/toolnexus-conformance/steps/client"
	"github.com/muthuishere/toolnexus-conformance/steps/contract"
	"github.com/muthuishere/toolnexus-conformance/steps/hooks"
	"github.com/muthuishere/toolnexus-conformance/steps/llm"
	"github.com/muthuishere/toolnexus-conformance/steps/loop"
	"github.com/muthuishere/toolnexus-conformance/steps/mcp"
	"github.com/muthuishere/toolnexus-conformance/steps/memory"
	"github.com/muthuishere/toolnexus-conformance/steps/parity"
	"github.com/muthuishere/toolnexus-conformance/steps/resilience"
	"github.com/muthuishere/toolnexus-conformance/steps/skills"
	"github.com/muthuishere/toolnexus-conformance/steps/store"
	"github.com/muthuishere/toolnexus-conformance/steps/stream"
	"github.com/muthuishere/toolnexus-conformance/steps/suspension"
	"github.com/muthuishere/toolnexus-conformance/steps/translate"
	"github.com/muthuishere/toolnexus-conformance/steps/transport"
)

// Library is the step library handed to the engine.
func Library() kernel.Library {
	return kernel.Library{
		client.Area(),
		llm.Area(),
		transport.Area(),
		mcp.Area(),
		store.Area(),
		calls.Area(),
		parity.Area(),
		contract.Area(),
		skills.Area(),
		loop.Area(),
		hooks.Area(),
		stream.Area(),
		resilience.Area(),
		memory.Area(),
		builtins.Area(),
		suspension.Area(),
		translate.Area(),
	}
}

// Returned is X.4's values of an attempt (steps/parity).
func Returned(a *kernel.Attempt, tags []string) any { return parity.Returned(a, tags) }
