package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	toolnexus "github.com/muthuishere/toolnexus/golang"
)

// clientEntry is a client handle plus what its hooks record.
type clientEntry struct {
	client *toolnexus.Client
	rec    *recorder
	// hostStore is the store passed as store:"host", nil otherwise; kept for
	// store.identity.
	hostStore *toolnexus.InMemoryConversationStore
}

// clientCreateArgs mirrors the schema's args.client.create.
type clientCreateArgs struct {
	Handle        string         `json:"handle"`
	BaseURL       string         `json:"baseUrl"`
	Style         string         `json:"style"`
	Model         string         `json:"model"`
	APIKey        string         `json:"apiKey"`
	SystemPrompt  *string        `json:"systemPrompt"`
	MaxTurns      *int           `json:"maxTurns"`
	RequestParams map[string]any `json:"requestParams"`
	BodyTransform *transformArgs `json:"bodyTransform"`
	BeforeLLM     *hookArgs      `json:"beforeLLM"`
	HTTPClient    string         `json:"httpClient"`
	HTTPTimeoutMs int            `json:"httpTimeoutMs"`
	Store         string         `json:"store"`
}

// opClientCreate builds ClientOptions from data, installing the recording
// closures only when asked, so an unset option stays unset in the port.
func opClientCreate(a *adapter, raw json.RawMessage) (any, error) {
	var args clientCreateArgs
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	entry := &clientEntry{rec: &recorder{}}
	opts := toolnexus.ClientOptions{
		BaseURL: args.BaseURL,
		Style:   toolnexus.ClientStyle(args.Style),
		Model:   args.Model,
		APIKey:  args.APIKey,
	}
	if args.SystemPrompt != nil {
		opts.SystemPrompt = *args.SystemPrompt
	}
	if args.MaxTurns != nil {
		opts.MaxTurns = *args.MaxTurns
	}
	if args.RequestParams != nil {
		opts.RequestParams = args.RequestParams
	}
	if args.BodyTransform != nil {
		opts.BodyTransform = entry.rec.bodyTransform(*args.BodyTransform)
	}
	if args.BeforeLLM != nil {
		hook, err := entry.rec.beforeLLM(*args.BeforeLLM)
		if err != nil {
			return nil, err
		}
		opts.Hooks = &toolnexus.Hooks{BeforeLLM: hook}
	}
	switch args.HTTPClient {
	case "", "default":
	case "recording":
		// The host's whole client, its own Timeout included: the port must use it as given.
		opts.HTTPClient = &http.Client{Transport: countingTransport{base: http.DefaultTransport, n: &entry.rec.requests},
			Timeout: time.Duration(args.HTTPTimeoutMs) * time.Millisecond}
	default:
		return nil, unsupportedf("adapter: httpClient %q", args.HTTPClient)
	}
	switch args.Store {
	case "", "default":
	case "host":
		entry.hostStore = toolnexus.NewInMemoryConversationStore()
		opts.Store = entry.hostStore
	default:
		return nil, unsupportedf("adapter: store %q", args.Store)
	}
	entry.client = toolnexus.CreateClient(opts)
	if entry.client == nil {
		return nil, errors.New("adapter: CreateClient returned nil")
	}
	a.clients[args.Handle] = entry
	return map[string]any{}, nil
}

// clientRunArgs mirrors args.client.run; History stays raw so [] and absent differ.
type clientRunArgs struct {
	Client  string          `json:"client"`
	Toolkit string          `json:"toolkit"`
	Prompt  string          `json:"prompt"`
	Stream  bool            `json:"stream"`
	History json.RawMessage `json:"history"`
}

// runReport is the result shape shared by client.run and client.ask. Text, Turns and
// ToolCalls are nil (null) when the library produced no result.
type runReport struct {
	Text         *string    `json:"text"`
	Turns        *int       `json:"turns"`
	ToolCalls    []string   `json:"toolCalls"`
	TransformSaw []any      `json:"transformSaw"`
	HookSaw      []hookSeen `json:"hookSaw"`
	HTTPRequests int64      `json:"httpRequests"`
}

// opClientRun runs (or streams) one prompt. The runner owns timing, so the
// context is never bounded here.
func opClientRun(a *adapter, raw json.RawMessage) (any, error) {
	var args clientRunArgs
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	var history []any
	hasHistory := len(args.History) > 0 && string(args.History) != "null"
	if hasHistory {
		if err := json.Unmarshal(args.History, &history); err != nil {
			return nil, &opError{kind: kindFailed, msg: "adapter: history: " + err.Error()}
		}
		if history == nil {
			history = []any{}
		}
	}
	if args.Stream && hasHistory {
		return nil, unsupportedf("adapter: the Go port's Stream takes no history")
	}
	return a.withRun(args.Client, args.Toolkit, func(ctx context.Context, c *toolnexus.Client, tk *toolnexus.Toolkit) (*toolnexus.RunResult, error) {
		switch {
		case args.Stream:
			return drainStream(c.Stream(ctx, args.Prompt, tk))
		case hasHistory:
			return ptr(c.RunWithHistory(ctx, args.Prompt, tk, history))
		default:
			return ptr(c.Run(ctx, args.Prompt, tk))
		}
	})
}

// clientAskArgs mirrors args.client.ask.
type clientAskArgs struct {
	Client  string `json:"client"`
	Toolkit string `json:"toolkit"`
	Prompt  string `json:"prompt"`
	ID      string `json:"id"`
}

// opClientAsk runs one prompt against the conversation kept under id.
func opClientAsk(a *adapter, raw json.RawMessage) (any, error) {
	var args clientAskArgs
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	return a.withRun(args.Client, args.Toolkit, func(ctx context.Context, c *toolnexus.Client, tk *toolnexus.Toolkit) (*toolnexus.RunResult, error) {
		return ptr(c.Ask(ctx, args.Prompt, tk, args.ID))
	})
}

// ptr adapts the value-returning Run/Ask to withRun's pointer form.
func ptr(res toolnexus.RunResult, err error) (*toolnexus.RunResult, error) {
	if err != nil {
		return nil, err
	}
	return &res, nil
}

// withRun resolves handles, resets the recorder, runs fn and builds the report.
// With no toolkit named it passes an empty one: the Go API takes a *Toolkit
// and a host with no tools would build exactly that.
func (a *adapter) withRun(client, toolkit string, fn func(context.Context, *toolnexus.Client, *toolnexus.Toolkit) (*toolnexus.RunResult, error)) (any, error) {
	entry, err := a.lookupClient(client)
	if err != nil {
		return nil, err
	}
	tk, err := a.lookupToolkit(toolkit)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	if tk == nil {
		empty, err := toolnexus.CreateToolkit(ctx, toolnexus.Options{Builtins: false})
		if err != nil {
			return nil, err
		}
		defer empty.Close()
		tk = empty
	}
	base := entry.rec.reset()
	res, err := fn(ctx, entry.client, tk)
	if err != nil {
		return nil, err
	}
	saw, hooks := entry.rec.snapshot()
	report := runReport{
		TransformSaw: saw,
		HookSaw:      hooks,
		HTTPRequests: entry.rec.requests.Load() - base,
	}
	if res != nil { // SPEC.md §3: no result from the library stays null
		report.Text, report.Turns = &res.Text, &res.Turns
		report.ToolCalls = []string{}
		for _, tc := range res.ToolCalls {
			report.ToolCalls = append(report.ToolCalls, tc.Name)
		}
	}
	return report, nil
}

// drainStream consumes a stream up to its terminal event. Anything after it
// is drained in the background so the library's goroutine never blocks on us.
// A done event without a result is reported as that: a null result.
func drainStream(ch <-chan toolnexus.StreamEvent, err error) (*toolnexus.RunResult, error) {
	if err != nil {
		return nil, err
	}
	for ev := range ch {
		switch ev.Type {
		case "done":
			go func() {
				for range ch {
				}
			}()
			return ev.Result, nil
		case "error":
			go func() {
				for range ch {
				}
			}()
			if ev.Err == nil {
				return nil, errors.New("adapter: error event without an error")
			}
			return nil, ev.Err
		}
	}
	return nil, errors.New("adapter: stream closed without a done or error event")
}
