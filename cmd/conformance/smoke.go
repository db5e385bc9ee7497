package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/internal/ports"
	"github.com/muthuishere/toolnexus-conformance/internal/safetext"
	"github.com/muthuishere/toolnexus-conformance/schema"
)

// cmdSmoke is the runner-owned check of every adapter (SPEC.md §3 "conformance smoke"): its
// hello against the protocol, each op and slot it declares, the three answers a slot gets,
// error relay and a clean shutdown. It judges the adapter, never the library: a library
// error relayed as the protocol says is fine here.
func cmdSmoke(args []string) int {
	c, chosen, proto, p, code := portsCommand("smoke", args)
	if p == nil {
		return code
	}
	for _, name := range chosen {
		if r := p.preset[name]; r != nil {
			fmt.Printf("%-9s not present: %s\n", name, r.Reason)
			if r.Broken {
				code = 1
			}
			continue
		}
		if !smokeOne(c, proto, name, p.env[name]) {
			code = 1
		}
	}
	return code
}

// smokeOne prepares and starts one implementation's adapter and runs the smoke script on it;
// false when a check failed or the adapter would not start.
func smokeOne(c common, proto *schema.Protocol, name string, env []string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	im, err := c.set.Resolve(name)
	if err != nil {
		fmt.Printf("%-9s %v\n", name, err)
		return false
	}
	if len(env) > 0 {
		im.Absent = "" // a checkout build supplies the library
	}
	ready, err := ports.PrepareImplementation(ctx, c.root, c.cache, im, c.prepareTimeout, env...)
	var np *ports.NotPresent
	switch {
	case errors.As(err, &np):
		fmt.Printf("%-9s not present: %s\n", name, np.Reason)
		return !im.Required
	case err != nil:
		fmt.Printf("%-9s BROKEN: %s\n", name, safetext.Line(err.Error()))
		return false
	}
	p, err := adapter.Start(adapter.Config{Port: name, Argv: ready.Argv, Env: append(append([]string(nil), im.Env...), env...),
		CallTimeout: 30 * time.Second, Schema: proto})
	if err != nil {
		fmt.Printf("%-9s BROKEN: %s\n", name, safetext.Line(err.Error()))
		return false
	}
	defer p.Close()
	s := &smoke{ctx: ctx, proc: p, proto: proto}
	s.run()
	fmt.Printf("%s\n", s.title(name))
	// Red first, where the eye lands; then green; then what was not smoked.
	rank := map[string]int{stFail: 0, stOK: 1, stSkipped: 2, stUnsupported: 3}
	slices.SortStableFunc(s.lines, func(a, b smokeLine) int { return rank[a.state] - rank[b.state] })
	count := map[string]int{}
	for _, l := range s.lines {
		count[l.state]++
		fmt.Printf("  %-11s %s\n", l.state, safetext.Line(l.text))
	}
	failed := count[stFail]
	if failed > 0 {
		if tail := strings.TrimSpace(p.StderrTail()); tail != "" {
			fmt.Printf("  adapter stderr (tail):\n%s\n", indentLines(ports.TailLines(tail, 15)))
		}
	}
	fmt.Printf("%-9s %d ok, %d failed, %d unsupported, %d skipped\n", name, count[stOK], failed, count[stUnsupported], count[stSkipped])
	return failed == 0
}
