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

	"toolnexus-conformance/internal/adapter"
	"toolnexus-conformance/internal/ports"
	"toolnexus-conformance/schema"
)

func cmdInfo(args []string) int {
	fs := flag.NewFlagSet("info", flag.ContinueOnError)
	var c common
	c.register(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	chosen, _, err := c.resolve()
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	proto, err := schema.Load()
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	p, err := c.buildImpls(context.Background(), chosen)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	lines := make([]string, len(chosen))
	var wg sync.WaitGroup
	for i, port := range chosen {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r := p.preset[port]; r != nil {
				lines[i] = fmt.Sprintf("%-7s not present: %s", port, r.Reason)
				if r.HarnessErr != "" {
					lines[i] = fmt.Sprintf("%-7s broken: %s", port, r.Reason)
				}
				return
			}
			lines[i] = describe(c, proto, port, p.env[port]...)
		}()
	}
	wg.Wait()
	for _, l := range lines {
		fmt.Println(l)
	}
	if p.tree != nil {
		for _, u := range p.tree.Unadapted {
			fmt.Printf("%-7s in the checkout, no adapter in this harness\n", u)
		}
	}
	return 0
}

func describe(c common, proto *schema.Protocol, port string, env ...string) string {
	ctx := context.Background()
	adapterPort, _, _ := strings.Cut(port, "@")
	ready, err := ports.Prepare(ctx, c.root, c.cache, adapterPort, c.prepareTimeout, env...)
	var np *ports.NotPresent
	if errors.As(err, &np) {
		return fmt.Sprintf("%-7s not present: %s", port, np.Reason)
	}
	if err != nil {
		return fmt.Sprintf("%-7s not present: %v", port, err)
	}
	p, err := adapter.Start(adapter.Config{Port: port, Argv: ready.Argv, Env: env, CallTimeout: 30 * time.Second, Schema: proto})
	if err != nil {
		return fmt.Sprintf("%-7s not present: %v", port, err)
	}
	defer p.Close()
	r, err := p.Call(ctx, "hello", nil)
	if err != nil {
		return fmt.Sprintf("%-7s not present: %v", port, err)
	}
	if !r.OK {
		return fmt.Sprintf("%-7s not present: hello failed: %s", port, r.Error.Message)
	}
	ops, _ := r.Result["ops"].([]any)
	return fmt.Sprintf("%-7s present: %v %v, runtime %v, %d ops", port, r.Result["library"], r.Result["version"], r.Result["runtime"], len(ops))
}
