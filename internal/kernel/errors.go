package kernel

import "fmt"

// Inconclusive marks a precondition the fakes never saw (see result.StatusInconclusive).
// Final says no other attempt can reach it either (result.Outcome.Final).
type Inconclusive struct {
	Why   string
	Final bool
}

func (e *Inconclusive) Error() string { return "inconclusive: " + e.Why }

// Unsupported marks a step the port (or its adapter) cannot express.
type Unsupported struct{ Op, Message string }

func (u *Unsupported) Error() string { return fmt.Sprintf("unsupported: %s: %s", u.Op, u.Message) }

// Misdeclared is a scenario at fault, not the port: its timing tags disagree with its steps.
// The run reports it as a harness error at the scenario's file:line (result.Outcome.Harness).
type Misdeclared struct{ Why string }

func (e *Misdeclared) Error() string { return "harness: " + e.Why }

// Blocked is a scenario that cannot pass because the port lacks a feature another scenario
// judges (By, its stable id): a failure that names that scenario, final at once, never an
// inconclusive that reads as a timing question.
type Blocked struct{ By, Why string }

func (b *Blocked) Error() string { return "blocked by " + b.By + ": " + b.Why }
