package suite

import (
	"context"
	"fmt"
	"sync"

	"toolnexus-conformance/internal/adapter"
	"toolnexus-conformance/internal/safetext"
)

// BreakerThreshold is how many consecutive adapter failures (a call unanswered within its
// deadline, a crash, a protocol break, or a replacement that will not start or say hello)
// make an implementation unresponsive: its remaining scenarios are not run and the run is red.
// A scenario that ends with its adapter still answering resets the count. With a hung adapter
// this costs at most this many call deadlines.
const BreakerThreshold = 3

// UnresponsiveError is what steps get from an implementation the breaker gave up on.
type UnresponsiveError struct{ Port, Why string }

func (e *UnresponsiveError) Error() string {
	return fmt.Sprintf("adapter %q is unresponsive: %s", e.Port, e.Why)
}

// manager keeps one live adapter per implementation and replaces it when it breaks, until the
// breaker trips.
type manager struct {
	cfg       adapter.Config
	threshold int

	mu         sync.Mutex
	proc       *adapter.Process
	strikes    int
	struck     bool   // a strike happened during the current scenario
	dead       string // why the breaker tripped
	lastStderr string
	leaks      []adapter.Leak // left by adapters shut down in order
}

// strike records one adapter failure; it reports whether the breaker tripped. Callers hold mu.
func (m *manager) strike(why string) bool {
	m.strikes++
	m.struck = true
	if m.strikes >= m.threshold && m.dead == "" {
		m.dead = fmt.Sprintf("%d consecutive adapter failures, the last: %s", m.strikes, why)
	}
	return m.dead != ""
}

func (m *manager) get(ctx context.Context) (*adapter.Process, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.dead != "" {
		return nil, &UnresponsiveError{m.cfg.Port, m.dead}
	}
	if m.proc != nil && !m.proc.IsBroken() {
		return m.proc, nil
	}
	if m.proc != nil {
		// A broken process answers any call with the reason it broke, without writing.
		_, err := m.proc.Call(context.Background(), "hello", nil)
		m.lastStderr = m.proc.StderrTail()
		m.proc.Close()
		m.leaks = append(m.leaks, m.proc.Leaks()...)
		m.proc = nil
		if m.strike(firstLine(fmt.Sprint(err))) {
			return nil, &UnresponsiveError{m.cfg.Port, m.dead}
		}
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("no new adapter: the run was stopped (%s)", cause(ctx))
	}
	p, err := adapter.Start(m.cfg)
	if err != nil {
		m.strike(firstLine(err.Error()))
		return nil, err
	}
	r, err := p.Call(ctx, "hello", nil)
	if err == nil && !r.OK {
		err = fmt.Errorf("hello failed: %s", r.Error.Message)
	}
	if err != nil {
		m.lastStderr = p.StderrTail()
		p.Close()
		m.strike(firstLine(err.Error()))
		return nil, err
	}
	m.proc = p
	return p, nil
}

// scenarioDone resets the count when the scenario saw no adapter failure.
func (m *manager) scenarioDone() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.struck && m.dead == "" {
		m.strikes = 0
	}
	m.struck = false
}

func (m *manager) unresponsive() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.dead
}

func (m *manager) hello(ctx context.Context) (map[string]any, error) {
	p, err := m.get(ctx)
	if err != nil {
		return nil, err
	}
	r, err := p.Call(ctx, "hello", nil)
	if err != nil {
		return nil, err
	}
	// The identity is printed and reported: it must not carry the adapter's raw bytes.
	for k, v := range r.Result {
		if s, ok := v.(string); ok {
			r.Result[k] = safetext.Line(s)
		}
	}
	return r.Result, nil
}

// close shuts the adapter down (again is a no-op) and returns every leak seen since the last close.
func (m *manager) close() []adapter.Leak {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.proc != nil {
		m.proc.Close()
		m.leaks = append(m.leaks, m.proc.Leaks()...)
		m.proc = nil
	}
	leaks := m.leaks
	m.leaks = nil
	return leaks
}
