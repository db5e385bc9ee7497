package mcpfake

import (
	"context"
	"net/http"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// newHTTPClient is an HTTP client whose idle connections die with the test.
func newHTTPClient(t *testing.T) *http.Client {
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// connect opens a go-sdk client session over tr. The context must outlive
// Connect: the SSE client transport ties its event stream to it.
func connect(t *testing.T, tr mcp.Transport) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(t.Context(), tr, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	return cs
}

// checkTools lists the tools and calls each one: the fake must expose a, b,
// c and get.balance, each with its own description and schema, and each
// must answer "<name>:ok".
func checkTools(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if got := cs.InitializeResult().ServerInfo.Name; got != "fake-mcp" {
		t.Errorf("server name %q", got)
	}
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("list tools: %v", err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if tool.Description != "tool "+tool.Name {
			t.Errorf("%s: description %q", tool.Name, tool.Description)
		}
		if want := Schema(tool.Name); !reflect.DeepEqual(tool.InputSchema, want) {
			t.Errorf("%s: schema %v, want %v", tool.Name, tool.InputSchema, want)
		}
	}
	if want := []string{"a", "b", "c", "get.balance"}; !slices.Equal(names, want) {
		t.Fatalf("tools %q, want %q", names, want)
	}
	for _, name := range names {
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{"x": "1"}})
		if err != nil {
			t.Fatalf("call %s: %v", name, err)
		}
		if len(r.Content) != 1 || r.IsError {
			t.Fatalf("call %s: %+v", name, r)
		}
		if text, _ := r.Content[0].(*mcp.TextContent); text == nil || text.Text != name+":ok" {
			t.Errorf("call %s: content %#v", name, r.Content[0])
		}
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
