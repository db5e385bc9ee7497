package steps

import (
	"encoding/json"
	"fmt"
	"strings"
)

// deadlineKindsFile pins, per port, which error kind is that port's deadline error: a port
// whose library has no deadline type reports a passed deadline as its cancellation (G3.3).
const deadlineKindsFile = "deadline-kinds.json"

type deadlineKinds struct {
	Implementations map[string]string `json:"implementations"`
	Ports           map[string]struct {
		Kind string `json:"kind"`
		Fact string `json:"fact"`
	} `json:"ports"`
}

// deadlineKindFor returns impl's deadline kind and the fact it rests on; an implementation
// whose port the fixture does not know is a harness error, never a guess.
func deadlineKindFor(root, impl string) (string, string, error) {
	b, err := readFixture(root, deadlineKindsFile)
	if err != nil {
		return "", "", err
	}
	var d deadlineKinds
	if err := json.Unmarshal(b, &d); err != nil {
		return "", "", fmt.Errorf("harness: fixtures/%s: %w", deadlineKindsFile, err)
	}
	port, ok := d.Implementations[impl]
	if !ok {
		port, _, _ = strings.Cut(impl, "@")
	}
	row, ok := d.Ports[port]
	if !ok || (row.Kind != "deadline" && row.Kind != "cancelled") {
		return "", "", fmt.Errorf("harness: fixtures/%s has no deadline kind for port %q (implementation %q)", deadlineKindsFile, port, impl)
	}
	return row.Kind, row.Fact, nil
}

// callFailsWithDeadline expects this port's deadline error: `deadline`, or `cancelled` where
// the fixture pins that the library has no deadline type.
func (w *World) callFailsWithDeadline() error {
	kind, fact, err := deadlineKindFor(w.env.Root, w.env.Port)
	if err != nil {
		return err
	}
	if err := w.callFailsWith(kind); err != nil {
		return fmt.Errorf("%w (this port's deadline error is %q: %s)", err, kind, fact)
	}
	return nil
}
