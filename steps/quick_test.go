package steps

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gherkin "github.com/cucumber/gherkin/go/v42"
	"github.com/cucumber/godog"
	messages "github.com/cucumber/messages/go/v34"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"

	mcpfake "github.com/muthuishere/toolnexus-conformance/fakes/mcp"
	"github.com/muthuishere/toolnexus-conformance/internal/timing"
)

// allSteps is a table of every real step definition, bound to no scenario.
func allSteps() *kernel.Steps { return kernel.Table(Library()) }

// detached is an attempt outside any run, for the states' own tests.
func detached(t *testing.T) *World {
	t.Helper()
	s := &godog.Scenario{}
	a, end, err := kernel.Detached(context.Background(), &kernel.Env{TempRoot: t.TempDir()}, Library(), s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(end)
	return kernel.Get[World](a)
}

func scenariosOf(t *testing.T, name, src string) []*godog.Scenario {
	t.Helper()
	ids := (&messages.Incrementing{}).NewId
	doc, err := gherkin.ParseGherkinDocument(strings.NewReader(src), ids)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return gherkin.Pickles(*doc, name, ids)
}

// A quick attempt stands only if every server that does not stall had been listed: a cancel
// that lands while "good" is still connecting would test another situation.
func TestQuickPremiseNeedsEveryOtherServerListed(t *testing.T) {
	good, err := mcpfake.StartStreamable()
	if err != nil {
		t.Fatal(err)
	}
	defer good.Close()
	dir := t.TempDir()
	w := detached(t)
	w.stallsFor("stuck", timing.Forever)
	w.mcp().http["good"] = good
	w.mcp().servers["good"] = map[string]any{"url": good.URL()}
	w.mcp().servers["stuck"] = map[string]any{"url": "http://127.0.0.1:1/mcp"} // stalls: not asked to be listed
	w.mcp().servers["off"] = map[string]any{"url": "http://127.0.0.1:1/mcp", "enabled": false}
	w.mcp().pidFiles["local"] = filepath.Join(dir, "local.pid")
	w.mcp().servers["local"] = map[string]any{"command": []any{"x"}}

	if why := w.stalls().Unreached(); !strings.Contains(why, `"good" had not been listed`) {
		t.Fatalf("unlisted streamable server: %q", why)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: good.URL()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if why := w.stalls().Unreached(); !strings.Contains(why, `"local" had not been listed`) {
		t.Fatalf("unlisted stdio server: %q", why)
	}
	if err := os.WriteFile(mcpfake.ListedFile(w.mcp().pidFiles["local"]), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if why := w.stalls().Unreached(); why != "" {
		t.Errorf("every other server listed, yet: %q", why)
	}
}

// The premise of a quick attempt is every stall its steps registered: a stall the client did
// not reach makes the attempt void.
func TestQuickPremiseNeedsEveryRegisteredStallReached(t *testing.T) {
	stuck, err := mcpfake.StartStreamableStalling("tools/list")
	if err != nil {
		t.Fatal(err)
	}
	defer stuck.Close()
	w := detached(t)
	w.mcp().http["stuck"] = stuck
	w.mcp().servers["stuck"] = map[string]any{"url": stuck.URL()}
	w.stallsIn("stuck", "tools/list", timing.Forever)
	if why := w.stalls().Unreached(); !strings.Contains(why, "never received tools/list") {
		t.Fatalf("stall not reached: %q", why)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: stuck.URL()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	listCtx, stop := context.WithCancel(ctx)
	defer stop()
	go func() { _, _ = cs.ListTools(listCtx, nil) }()
	for stuck.Stalls() == 0 && ctx.Err() == nil {
		time.Sleep(5 * time.Millisecond)
	}
	if why := w.stalls().Unreached(); why != "" {
		t.Errorf("the stall was reached, yet: %q", why)
	}
}
