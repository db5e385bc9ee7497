package mcp

import (
	"fmt"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/internal/timing"
	"github.com/muthuishere/toolnexus-conformance/steps/common"

	mcpfake "github.com/muthuishere/toolnexus-conformance/fakes/mcp"
)

// Steps on a stdio child as the fakes saw it when a call returned: a call that says it
// disconnected must not leave its teardown still running, nor start a child it never needed.
func registerTeardownSteps(sc *kernel.Steps) {
	sc.Step(`^the stdio server of "([^"]*)" was already gone when the call returned$`, (*World).goneAtReturn)
	sc.Step(`^the stdio server of "([^"]*)" was never started$`, (*World).neverStarted)
}

// goneAtReturn judges the stdio child as the fakes saw it the moment the call's answer
// arrived (snapshotted by the MCP action, mcp_state.go), with no grace: a call that says it
// disconnected before returning must not leave its teardown still running.
func (w *World) goneAtReturn(name string) error {
	path, ok := w.mcp().PIDFiles[name]
	if !ok {
		return fmt.Errorf("harness: %q is not a stdio server of this scenario", name)
	}
	pid, err := common.ReadPID(path)
	if err != nil {
		return &kernel.Inconclusive{Why: fmt.Sprintf("the stdio server of %q never started (no PID file)", name)}
	}
	alive, seen := w.mcp().AliveAtReturn[name]
	if !seen {
		return fmt.Errorf("the stdio server of %q (pid %d) was started only after %s returned", name, pid, w.LastOp())
	}
	if alive {
		return fmt.Errorf("the stdio server of %q (pid %d) was still running when %s returned (gone %s later: %v)",
			name, pid, w.LastOp(), timing.ExitGrace, w.Settle(func() bool { return mcpfake.ProcessGone(pid) }))
	}
	return nil
}

func (w *World) neverStarted(name string) error {
	path, ok := w.mcp().PIDFiles[name]
	if !ok {
		return fmt.Errorf("harness: %q is not a stdio server of this scenario", name)
	}
	if pid, err := common.ReadPID(path); err == nil {
		return fmt.Errorf("the stdio server of %q was started (pid %d); want no child process for it", name, pid)
	}
	return nil
}
