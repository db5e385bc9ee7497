package transport

import (
	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
)

// slotHTTP lets the recording HTTP client's request go on; the kernel's record counts it.
func slotHTTP(*kernel.Attempt, map[string]any) adapter.Answer { return adapter.Answer{} }
