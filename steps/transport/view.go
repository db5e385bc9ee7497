package transport

import (
	_ "embed"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/client"
)

// World is the steps' view of an attempt in this area.
type World struct{ client.World }

func (w *World) client() *client.State { return client.Of(w.A) }

// Area is the injectable HTTP client and the client's own transport (README.md beside this file).
func Area() kernel.Area {
	return kernel.Area{
		Name:     "transport",
		Protocol: protocol,
		Register: func(t *kernel.Steps) {
			registerHeaderSteps(t)
			registerRetrySteps(t)
			registerBaseURLSteps(t)
		},
		Slots: map[string]kernel.SlotFunc{"http": slotHTTP},
	}
}

// protocol is the area's protocol fragment.
//
//go:embed protocol.json
var protocol []byte
