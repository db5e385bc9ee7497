package builtins

import (
	"os"
	"path/filepath"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
)

// State is the scenario's sandbox (a folder in the attempt's own temp dir, removed with it:
// never the clone, never $HOME) and what the last built-in tool call returned, and how long
// it took on the runner's clock.
type State struct {
	sandbox string
	result  map[string]any // tool.execute's {output, isError, metadata?}
	took    time.Duration
}

func (s *State) Init(a *kernel.Attempt) { s.sandbox = filepath.Join(a.Dir(), "sandbox") }

// dir makes the sandbox on first use.
func (s *State) dir() (string, error) { return s.sandbox, os.MkdirAll(s.sandbox, 0o755) }
