package toolnexus

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpCloseGrace is how long a graceful close may take before the session is cut off.
const mcpCloseGrace = 2 * time.Second

// mcpMaxListPages stops a server whose tools/list pagination never ends.
const mcpMaxListPages = 1000

var mcpClientInfo = &mcp.Implementation{Name: "toolnexus", Version: "reference"}

// liveServer is one connected session and the switch that ends everything under it.
type liveServer struct {
	session *mcp.ClientSession
	// end cancels the session's lifetime context: in-flight HTTP requests abort, a stdio
	// child is killed. Calling it before Close makes Close prompt.
	end  context.CancelFunc
	http *mcpHTTP // nil for stdio
	// raw sees the session's tools/call answers as they were sent.
	raw  *mcpRawSink
	once sync.Once
}

// shutdown closes gracefully (stdio EOF, HTTP DELETE), forcing the end after mcpCloseGrace.
func (l *liveServer) shutdown() {
	l.once.Do(func() {
		force := time.AfterFunc(mcpCloseGrace, l.end)
		_ = l.session.Close() // closing stdio reaps the child (cmd.Wait)
		force.Stop()
		l.finish()
	})
}

// abort ends the session at once; used when the caller's ctx is done.
func (l *liveServer) abort() {
	l.once.Do(func() {
		l.end()
		_ = l.session.Close()
		l.finish()
	})
}

func (l *liveServer) finish() {
	l.end()
	if l.http != nil {
		l.http.closeIdle()
	}
}

// closeMcpServers shuts the servers down in parallel so one slow close does not serialise the rest.
func closeMcpServers(servers []*liveServer, abort bool) {
	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if abort {
				s.abort()
			} else {
				s.shutdown()
			}
		}()
	}
	wg.Wait()
}

// connectServer opens an initialised session. Transport start and initialize share one
// budget of cfg.timeout() under ctx; for http that budget also covers the SSE fallback.
func connectServer(ctx context.Context, cfg ServerConfig) (*liveServer, error) {
	budget, cancel := context.WithTimeoutCause(ctx, cfg.timeout(), errMcpServerTimeout)
	defer cancel()
	kind, _ := cfg.kind()
	headers := ExpandEnvHeaders(cfg.Headers)
	var live *liveServer
	var err error
	switch kind {
	case mcpKindStdio:
		live, err = dialMcp(budget, func(life context.Context, sink *mcpRawSink) (mcp.Transport, *mcpHTTP) {
			return &mcpRawTransport{inner: stdioTransport(life, cfg), sink: sink}, nil
		})
	case mcpKindSSE:
		live, err = dialMcp(budget, sseTransport(cfg.URL, headers))
	default:
		live, err = dialMcp(budget, streamableTransport(cfg.URL, headers))
		if err != nil && budget.Err() == nil {
			// The server did not speak streamable HTTP; the remaining budget goes to SSE.
			var sseErr error
			if live, sseErr = dialMcp(budget, sseTransport(cfg.URL, headers)); sseErr != nil {
				err = fmt.Errorf("streamable HTTP: %v; SSE fallback: %w", err, sseErr)
			} else {
				err = nil
			}
		}
	}
	if err != nil {
		return nil, mcpBudgetErr(budget, cfg, "connect", err)
	}
	return live, nil
}

// dialMcp runs one connect attempt. The session lives on a context detached from budget (an
// SSE stream must outlast the connect call), but budget ending cancels it mid-attempt.
func dialMcp(budget context.Context, mk mcpDialer) (*liveServer, error) {
	life, end := context.WithCancel(context.WithoutCancel(budget))
	stop := context.AfterFunc(budget, end)
	sink := newMcpRawSink()
	transport, hc := mk(life, sink)
	client := mcp.NewClient(mcpClientInfo, nil)
	session, err := client.Connect(life, transport, nil)
	live := &liveServer{session: session, end: end, http: hc, raw: sink}
	if !stop() {
		// The budget ran out; the attempt may have finished in the same instant.
		if session != nil {
			live.abort()
		}
		end()
		if hc != nil {
			hc.closeIdle()
		}
		if err == nil {
			err = budget.Err()
		}
		return nil, err
	}
	if err != nil {
		end()
		if hc != nil {
			hc.closeIdle()
		}
		return nil, err
	}
	return live, nil
}

// mcpDialer builds one attempt's transport on the session's lifetime and raw sink.
type mcpDialer func(life context.Context, sink *mcpRawSink) (mcp.Transport, *mcpHTTP)

// errMcpServerTimeout marks a budget ended by the server's own timeout, not by the caller.
var errMcpServerTimeout = errors.New("server timeout")

// budgetErr names the phase when the server's own timeout ended it; the caller's cancel or
// deadline is passed through untouched (the loader reports ctx.Err() for those).
func mcpBudgetErr(budget context.Context, cfg ServerConfig, phase string, err error) error {
	if context.Cause(budget) != errMcpServerTimeout {
		return err
	}
	return fmt.Errorf("%s timed out after %dms: %w", phase, cfg.timeout().Milliseconds(), err)
}

func stdioTransport(life context.Context, cfg ServerConfig) mcp.Transport {
	// CommandContext ties the child to the session: ending life kills it, session.Close reaps it.
	cmd := exec.CommandContext(life, cfg.Command, cfg.Args...)
	cmd.Env = os.Environ()
	keys := make([]string, 0, len(cfg.Env))
	for k := range cfg.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		cmd.Env = append(cmd.Env, k+"="+cfg.Env[k])
	}
	cmd.Dir = cfg.Cwd
	// An *os.File is handed to the child directly, so Wait never blocks on a copy goroutine.
	cmd.Stderr = os.Stderr
	cmd.WaitDelay = time.Second
	return &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Second}
}

func streamableTransport(endpoint string, headers map[string]string) mcpDialer {
	return func(life context.Context, sink *mcpRawSink) (mcp.Transport, *mcpHTTP) {
		hc := newMcpHTTP(life, headers, sink)
		return &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc.client}, hc
	}
}

func sseTransport(endpoint string, headers map[string]string) mcpDialer {
	return func(life context.Context, sink *mcpRawSink) (mcp.Transport, *mcpHTTP) {
		hc := newMcpHTTP(life, headers, sink)
		return &mcp.SSEClientTransport{Endpoint: endpoint, HTTPClient: hc.client}, hc
	}
}

// listAllTools follows tools/list pagination, refusing a cursor that repeats.
func listAllTools(ctx context.Context, session *mcp.ClientSession) ([]*mcp.Tool, error) {
	var out []*mcp.Tool
	seen := map[string]bool{}
	params := &mcp.ListToolsParams{}
	for range mcpMaxListPages {
		res, err := session.ListTools(ctx, params)
		if err != nil {
			return nil, err
		}
		for _, t := range res.Tools {
			if t != nil {
				out = append(out, t)
			}
		}
		if res.NextCursor == "" {
			return out, nil
		}
		if seen[res.NextCursor] {
			return nil, fmt.Errorf("tools/list repeated cursor %q", res.NextCursor)
		}
		seen[res.NextCursor] = true
		params = &mcp.ListToolsParams{Cursor: res.NextCursor}
	}
	return nil, fmt.Errorf("tools/list exceeded %d pages", mcpMaxListPages)
}
