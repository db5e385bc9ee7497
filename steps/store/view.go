package store

import (
	_ "embed"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/client"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

// World is the steps' view of an attempt in this area.
type World struct{ common.View }

func (w *World) client() *client.State { return client.Of(w.A) }
func (w *World) store() *State         { return kernel.Get[State](w.A) }

// Area is the conversation store (README.md beside this file).
func Area() kernel.Area {
	return kernel.Area{Name: "store", Protocol: protocol, Register: registerStoreSteps}
}

// protocol is the area's protocol fragment.
//
//go:embed protocol.json
var protocol []byte
