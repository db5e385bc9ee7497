package adapter

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/safetext"
)

// CallbackFDEnv names the adapter's file descriptor for host-function answers (always 3).
const CallbackFDEnv = "CONFORMANCE_CALLBACK_FD"

// Host answers the host functions a library calls during one request (SPEC.md §3 "Host
// functions call back"): fn with its args as the adapter sent them. The steps decide the
// behaviour; the adapter only relays it.
type Host func(fn string, args json.RawMessage) Answer

// Answer is what a host function returns: Value (a new object, or with InPlace the value the
// received object must be edited to equal), or Error, which the stub raises.
type Answer struct {
	Value   any
	InPlace bool
	Error   string
}

// callbackWrite bounds the write of one answer: an adapter that stopped reading fd 3 must
// not hold the runner.
const callbackWrite = 5 * time.Second

// isCallback tells a callback line from a response by its "callback" member.
func isCallback(line []byte) bool {
	if !bytes.Contains(line, []byte(`"callback"`)) {
		return false
	}
	var head struct {
		Callback *json.RawMessage `json:"callback"`
	}
	return json.Unmarshal(line, &head) == nil && head.Callback != nil
}

// answer checks one callback line, asks host and writes the answer on the callback pipe.
// A malformed callback or an unwritable pipe is the adapter's fault (it is broken).
func (p *Process) answer(op string, line []byte, host Host) error {
	if p.cfg.Schema != nil {
		if err := p.cfg.Schema.ValidateCallback(line); err != nil {
			return p.fail(op, fmt.Sprintf("broke the protocol during %s with a callback (%s): %s", op, safetext.Line(err.Error()), clip(line, 400)))
		}
	}
	var cb struct {
		Callback int             `json:"callback"`
		Fn       string          `json:"fn"`
		Args     json.RawMessage `json:"args"`
	}
	if err := json.Unmarshal(line, &cb); err != nil {
		return p.fail(op, fmt.Sprintf("wrote a callback that is not protocol JSON during %s: %s", op, clip(line, 400)))
	}
	a := Answer{Error: fmt.Sprintf("runner: no host function %q was installed for %s", cb.Fn, op)}
	if host != nil {
		a = host(cb.Fn, cb.Args)
	}
	// One of the answers a slot gets (SPEC.md §3): raise, edit in place, or return.
	out := map[string]any{"callback": cb.Callback}
	switch {
	case a.Error != "":
		out["raise"] = a.Error
	case a.InPlace:
		out["edit"] = a.Value
	default:
		out["return"] = a.Value
	}
	reply, err := json.Marshal(out)
	if err != nil {
		return fmt.Errorf("harness: cannot encode the answer to %s: %w", cb.Fn, err)
	}
	if p.cfg.Schema != nil {
		if err := p.cfg.Schema.ValidateAnswer(reply); err != nil {
			return fmt.Errorf("harness bug: the answer to %s breaks the protocol schema: %v", cb.Fn, err)
		}
	}
	_ = p.cb.SetWriteDeadline(time.Now().Add(callbackWrite))
	if _, err := p.cb.Write(append(reply, '\n')); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return p.fail(op, fmt.Sprintf("did not read the answer to its %s callback from fd 3 within %s", cb.Fn, callbackWrite))
		}
		return p.fail(op, fmt.Sprintf("could not be sent the answer to its %s callback (%v)", cb.Fn, err))
	}
	return nil
}
