package main

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"runtime"
	"slices"
	"time"

	toolnexus "github.com/muthuishere/toolnexus/golang"
)

// portVersion is stamped by prepare (-ldflags -X main.portVersion=...) with a label for the
// port it built against, e.g. a git tag.
var portVersion = "unknown"

// args holds every op's arguments (field names match case-insensitively); the runner has
// checked them against the schema, so an op reads only what it uses.
type args struct {
	Handle, Client, Toolkit, Prompt, ID, Style, Model, Store string
	BaseURL                                                  string `json:"baseUrl"`
	APIKey                                                   string `json:"apiKey"`
	HTTPClient                                               string `json:"httpClient"`
	HTTPTimeoutMs                                            int    `json:"httpTimeoutMs"`
	SystemPrompt                                             string
	MaxTurns                                                 int
	RequestParams                                            map[string]any
	BodyTransform, BeforeLLM, Stream                         bool
	History                                                  *[]any // [] and absent differ
	Messages                                                 []any
	McpConfig                                                *struct {
		File   *string
		Inline map[string]any
	}
	ExtraTools []extraTool
	Builtins   bool // toolkit.create: the built-in tools (absent: off)
	// tool.execute: the tool's name and its args, kept raw so absent, null and numbers survive.
	Name                      string
	Args                      json.RawMessage
	Value                     string // sanitize
	CancelAfterMs, DeadlineMs *int64
	Context                   *bool
}

// adapter holds the handles that live between requests; requests are served one at a time.
type adapter struct {
	host     *host
	clients  map[string]*clientEntry
	toolkits map[string]*toolnexus.Toolkit
}

type clientEntry struct {
	client    *toolnexus.Client
	hostStore *toolnexus.InMemoryConversationStore // the store passed as store: host
}

func newAdapter(h *host) *adapter {
	return &adapter{host: h, clients: map[string]*clientEntry{}, toolkits: map[string]*toolnexus.Toolkit{}}
}

// closeAll closes every toolkit so stdio children do not outlive the adapter; bounded,
// because the runner kills the process group anyway.
func (a *adapter) closeAll(limit time.Duration) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		maps.Values(a.toolkits)(func(tk *toolnexus.Toolkit) bool { tk.Close(); return true })
	}()
	select {
	case <-done:
	case <-time.After(limit):
	}
}

func opHello(a *adapter, x args, _ string) (any, error) {
	return map[string]any{"port": "go", "library": "toolnexus", "version": portVersion, "runtime": runtime.Version(),
		"ops": slices.Sorted(maps.Keys(ops)), "slots": slots}, nil
}

// opClientCreate installs host functions only when asked, so an unset option stays unset.
func opClientCreate(a *adapter, x args, _ string) (any, error) {
	e := &clientEntry{}
	opts := toolnexus.ClientOptions{BaseURL: x.BaseURL, Style: toolnexus.ClientStyle(x.Style), Model: x.Model,
		APIKey: x.APIKey, RequestParams: x.RequestParams, SystemPrompt: x.SystemPrompt, MaxTurns: x.MaxTurns}
	if x.BodyTransform {
		opts.BodyTransform = a.host.bodyTransform(x.Handle)
	}
	if x.BeforeLLM {
		opts.Hooks = &toolnexus.Hooks{BeforeLLM: a.host.beforeLLM(x.Handle)}
	}
	if x.HTTPClient == "recording" { // the host's whole client, its own Timeout included
		opts.HTTPClient = &http.Client{Transport: transport{a.host, x.Handle}, Timeout: time.Duration(x.HTTPTimeoutMs) * time.Millisecond}
	}
	if x.Store == "host" {
		e.hostStore = toolnexus.NewInMemoryConversationStore()
		opts.Store = e.hostStore
	}
	if e.client = toolnexus.CreateClient(opts); e.client == nil {
		return nil, adapterErr("failed", "adapter: CreateClient returned nil")
	}
	a.clients[x.Handle] = e
	return nil, nil
}

// opClientRun serves client.run and client.ask; with no toolkit it passes an empty one.
func opClientRun(a *adapter, x args, op string) (any, error) {
	e, err := a.lookupClient(x.Client)
	if err != nil {
		return nil, err
	}
	if x.Stream && x.History != nil {
		return nil, adapterErr("unsupported", "adapter: the Go port's Stream takes no history")
	}
	ctx, tk := context.Background(), a.toolkits[x.Toolkit]
	if tk == nil && x.Toolkit != "" {
		return nil, adapterErr("failed", "adapter: unknown toolkit handle "+x.Toolkit)
	} else if tk == nil {
		if tk, err = toolnexus.CreateToolkit(ctx, toolnexus.Options{Builtins: false}); err != nil {
			return nil, err
		}
		defer tk.Close()
	}
	var res toolnexus.RunResult
	out := &res
	switch c := e.client; {
	case op == "client.ask":
		res, err = c.Ask(ctx, x.Prompt, tk, x.ID)
	case x.Stream:
		var ch <-chan toolnexus.StreamEvent
		if ch, err = c.Stream(ctx, x.Prompt, tk); err == nil {
			out, err = drainStream(ch)
		}
	case x.History != nil:
		res, err = c.RunWithHistory(ctx, x.Prompt, tk, append([]any{}, *x.History...))
	default:
		res, err = c.Run(ctx, x.Prompt, tk)
	}
	if err != nil {
		return nil, err
	}
	return runReport(out), nil
}

// runReport is what the library returned; no result stays null.
func runReport(res *toolnexus.RunResult) map[string]any {
	if res == nil {
		return map[string]any{"text": nil, "turns": nil, "toolCalls": nil}
	}
	names, calls := []string{}, []any{}
	for _, tc := range res.ToolCalls {
		names = append(names, tc.Name)
		calls = append(calls, tc) // its JSON tags are the protocol's names
	}
	return map[string]any{"text": res.Text, "turns": res.Turns, "toolCalls": names, "calls": calls}
}

// drainStream consumes a stream up to its terminal event; the rest is drained in the
// background so the library's goroutine never blocks on us.
func drainStream(ch <-chan toolnexus.StreamEvent) (*toolnexus.RunResult, error) {
	for ev := range ch {
		if ev.Type != "done" && ev.Type != "error" {
			continue
		}
		go func() {
			for range ch {
			}
		}()
		if ev.Type == "error" && ev.Err == nil {
			return nil, adapterErr("failed", "adapter: error event without an error")
		}
		return ev.Result, ev.Err // a done event without a result is reported as null
	}
	return nil, adapterErr("failed", "adapter: stream closed without a done or error event")
}

func (a *adapter) lookupClient(handle string) (*clientEntry, error) {
	if e, ok := a.clients[handle]; ok {
		return e, nil
	}
	return nil, adapterErr("failed", "adapter: unknown client handle "+handle)
}
