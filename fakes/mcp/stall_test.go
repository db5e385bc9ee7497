package mcpfake

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/muthuishere/toolnexus-conformance/fakes/internal/leakcheck"
)

// A fake stalling in tools/list completes initialize, then holds tools/list until the
// client gives up; closing the client's side frees every connection.
func TestHTTPStallsInToolsList(t *testing.T) {
	leakcheck.Check(t)
	for _, tc := range []struct {
		name  string
		start func(string) (*HTTPServer, error)
		tr    func(string, *testing.T) mcp.Transport
	}{
		{"streamable", StartStreamableStalling, func(u string, t *testing.T) mcp.Transport {
			return &mcp.StreamableClientTransport{Endpoint: u, HTTPClient: newHTTPClient(t), MaxRetries: -1}
		}},
		{"sse", StartSSEStalling, func(u string, t *testing.T) mcp.Transport {
			return &mcp.SSEClientTransport{Endpoint: u, HTTPClient: newHTTPClient(t)}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := tc.start(PhaseToolsList)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			cs := connect(t, tc.tr(h.URL(), t))
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			if _, err := cs.ListTools(ctx, nil); err == nil {
				t.Fatal("tools/list answered on a fake stalling in it")
			}
			if h.Stalls() != 1 {
				t.Errorf("Stalls = %d, want 1", h.Stalls())
			}
			_ = cs.Close()
		})
	}
}

func TestHTTPStallsInInitialize(t *testing.T) {
	leakcheck.Check(t)
	h, err := StartSSEStalling(PhaseInitialize)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err = mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx,
		&mcp.SSEClientTransport{Endpoint: h.URL(), HTTPClient: newHTTPClient(t)}, nil)
	if err == nil {
		t.Fatal("initialize answered on a fake stalling in it")
	}
	if h.Stalls() != 1 {
		t.Errorf("Stalls = %d, want 1", h.Stalls())
	}
}

// A streamable client (no SSE fallback) is refused by the SSE-only stalling fake before the
// stall, so it is never counted as having reached initialize.
func TestSSEOnlyStallRefusesStreamableFirst(t *testing.T) {
	leakcheck.Check(t)
	h, err := StartSSEStalling(PhaseInitialize)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err = mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: h.URL(), HTTPClient: newHTTPClient(t)}, nil)
	if err == nil {
		t.Fatal("a streamable client connected to an SSE-only fake")
	}
	if ctx.Err() != nil {
		t.Errorf("the streamable attempt stalled instead of being refused: %v", err)
	}
	if h.Stalls() != 0 {
		t.Errorf("Stalls = %d, want 0: a refused streamable POST is not the SSE initialize", h.Stalls())
	}
}

// The stdio fake stalling in tools/list records that it got there and still exits when
// its stdin closes.
func TestStdioStallsInToolsList(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "fake.pid")
	cmd := child(t, envPIDFile+"="+pidFile, envStall+"="+PhaseToolsList)
	cs := connect(t, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := cs.ListTools(ctx, nil); err == nil {
		t.Fatal("tools/list answered")
	}
	if b, err := os.ReadFile(StalledFile(pidFile)); err != nil || string(b) != PhaseToolsList {
		t.Errorf("stalled marker %q, %v", b, err)
	}
	begin := time.Now()
	_ = cs.Close()
	if d := time.Since(begin); d > 3*time.Second {
		t.Errorf("the stalled child took %v to exit on EOF", d)
	}
	if !ProcessGone(cmd.Process.Pid) {
		t.Error("child still running")
	}
}

// A hung stdio fake survives its stdin closing; a signal ends it.
func TestStdioHang(t *testing.T) {
	cmd := child(t, envHang+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	_, _ = stdin.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}` + "\n"))
	_ = stdin.Close()
	select {
	case err := <-done:
		t.Fatalf("the hung child exited on EOF: %v", err)
	case <-time.After(400 * time.Millisecond):
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatal("the hung child ignored SIGTERM")
	}
}

// The SDK answers initialize itself, so the stdio stall must act below it.
func TestStdioStallsInInitialize(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "fake.pid")
	cmd := child(t, envPIDFile+"="+pidFile, envStall+"="+PhaseInitialize)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx,
		&mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err == nil {
		t.Fatalf("initialize answered: %+v", cs.InitializeResult())
	}
	if b, err := os.ReadFile(StalledFile(pidFile)); err != nil || string(b) != PhaseInitialize {
		t.Errorf("stalled marker %q, %v", b, err)
	}
	waitFor(t, "the child to exit", func() bool { return cmd.Process != nil && ProcessGone(cmd.Process.Pid) })
}
