package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/muthuishere/toolnexus-conformance/steps"

	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/internal/ports"
	"github.com/muthuishere/toolnexus-conformance/schema"
)

func cmdInfo(args []string) int {
	c, chosen, proto, p, code := portsCommand("info", args)
	if p == nil {
		return code
	}
	lines := make([]string, len(chosen))
	var wg sync.WaitGroup
	for i, port := range chosen {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r := p.preset[port]; r != nil {
				lines[i] = fmt.Sprintf("%-9s not present: %s", port, r.Reason)
				if r.Broken {
					lines[i] = fmt.Sprintf("%-9s BROKEN: %s\n%s", port, r.Reason, indentLines(r.LogTail))
				}
				return
			}
			// A cold prepare (a venv, a Maven build) takes a while: say what is being waited on.
			fmt.Fprintf(os.Stderr, "%-9s preparing the adapter…\n", port)
			lines[i] = describe(c, proto, port, p.env[port]...)
		}()
	}
	wg.Wait()
	code = 0
	for i, l := range lines {
		fmt.Println(l)
		// A required implementation (the reference) must be there.
		if im, _ := c.set.Resolve(chosen[i]); strings.Contains(l, " BROKEN: ") || (im.Required && !strings.Contains(l, " present: ")) {
			code = 1
		}
	}
	if p.tree != nil {
		for _, u := range p.tree.Unadapted {
			fmt.Printf("%-9s in the checkout, no adapter in this harness\n", u)
		}
	}
	return code
}

// portsCommand is the start info and smoke share: their flags, the implementations chosen, the
// composed protocol and the builds --toolnexus and releases need. A nil plan means stop with
// code (bad input, or -h).
func portsCommand(name string, args []string) (common, []string, *schema.Protocol, *plan, int) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	var c common
	c.registerPorts(fs)
	if code, ok := parseFlags(fs, args); !ok {
		return c, nil, nil, nil, code
	}
	chosen, _, err := c.resolve()
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return c, nil, nil, nil, 2
	}
	proto, err := steps.Library().Protocol()
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return c, nil, nil, nil, 2
	}
	p, err := c.buildImpls(context.Background(), chosen)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return c, nil, nil, nil, 2
	}
	return c, chosen, proto, p, 0
}

func describe(c common, proto *schema.Protocol, name string, env ...string) string {
	ctx := context.Background()
	im, err := c.set.Resolve(name)
	if err != nil {
		return fmt.Sprintf("%-9s %v", name, err)
	}
	if len(env) > 0 {
		im.Absent = "" // a checkout build supplies the library
	}
	ready, err := ports.PrepareImplementation(ctx, c.root, c.cache, im, c.prepareTimeout, env...)
	var np *ports.NotPresent
	var br *ports.Broken
	switch {
	case errors.As(err, &np):
		return fmt.Sprintf("%-9s not present: %s", name, np.Reason)
	case errors.As(err, &br):
		return fmt.Sprintf("%-9s BROKEN: %s\n%s", name, br.Reason, indentLines(br.LogTail))
	case err != nil:
		return fmt.Sprintf("%-9s BROKEN: %v", name, err)
	}
	p, err := adapter.Start(adapter.Config{Port: name, Argv: ready.Argv, Env: append(append([]string(nil), im.Env...), env...), CallTimeout: 30 * time.Second, Schema: proto})
	if err != nil {
		return fmt.Sprintf("%-9s BROKEN: %v", name, err)
	}
	defer p.Close()
	r, err := p.Call(ctx, "hello", nil)
	if err != nil {
		return fmt.Sprintf("%-9s BROKEN: %v", name, err)
	}
	if !r.OK {
		return fmt.Sprintf("%-9s BROKEN: hello failed: %s", name, r.Error.Message)
	}
	ops, _ := r.Result["ops"].([]any)
	return fmt.Sprintf("%-9s present: port %v, %v %v, runtime %v, %d ops", name, r.Result["port"], r.Result["library"], r.Result["version"], r.Result["runtime"], len(ops))
}

func indentLines(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "    " + l
	}
	return strings.Join(lines, "\n")
}
