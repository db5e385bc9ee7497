package toolnexus

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
)

// ClientStyle names the wire format a client speaks.
type ClientStyle string

// The two wire styles.
const (
	StyleOpenAI    ClientStyle = "openai"
	StyleAnthropic ClientStyle = "anthropic"
)

// ClientOptions configures CreateClient; the zero value of each field is a usable default.
type ClientOptions struct {
	// BaseURL is the provider root, e.g. https://api.openai.com/v1.
	BaseURL string
	// Style picks the wire format; empty means StyleOpenAI.
	Style ClientStyle
	// Model is sent as the body's "model".
	Model string
	// APIKey authenticates; empty falls back to OPENROUTER_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY.
	APIKey string
	// Headers are added to every LLM request and win over the client's own.
	Headers map[string]string
	// SystemPrompt becomes a leading system message (openai) or the "system" key (anthropic).
	SystemPrompt string
	// MaxTurns caps model calls per run; 0 means 10.
	MaxTurns int
	// Hooks are optional callbacks inside the loop.
	Hooks *Hooks
	// Retries is how often a failed LLM request may be retried; 0 means 2, and a negative
	// value means none (an int cannot tell 0 from unset).
	Retries int
	// RetryBaseMs is the first backoff in milliseconds, doubled per retry; 0 means 500.
	RetryBaseMs int
	// TimeoutMs bounds a whole run, tool calls included; 0 means no bound.
	TimeoutMs int
	// Store keeps Ask transcripts; nil means a fresh in-memory store.
	Store ConversationStore
	// RequestParams are top-level body keys merged into every LLM request; they win on collision,
	// except messages, tools and stream, which are dropped with a warning.
	RequestParams map[string]any
	// BodyTransform gets the final body (after RequestParams) and returns what is sent; nil means unchanged.
	BodyTransform func(body map[string]any) map[string]any
	// HTTPClient carries every LLM request, retries included; nil means http.DefaultClient.
	HTTPClient *http.Client
	// OnError decides, for each failed LLM attempt, whether to retry it (within Retries) or
	// fail now; nil retries exactly the retryable ones. Aborts (timeout, cancel) never reach it.
	OnError func(ErrorInfo) Tier
	// WaitFor resolves a suspended tool's Request (§10): on an Ok answer the tool runs once
	// more with the answer in its context. Nil means a suspension halts the run with
	// Status "pending" instead of waiting.
	WaitFor func(Request) (Answer, error)
}

// Tier is OnError's answer for one failed attempt.
type Tier string

const (
	// TierRetry backs off and tries again, never more than Retries times in all.
	TierRetry Tier = "retry"
	// TierFail surfaces the failure now, skipping the retries left.
	TierFail Tier = "fail"
)

// ErrorInfo is one failed LLM attempt as OnError sees it.
type ErrorInfo struct {
	Err       error // the transport error; nil for an HTTP status
	Status    int   // the HTTP status; 0 for a transport error
	Attempt   int   // zero-based
	Retryable bool  // whether the default classifier retries it (429, 500, 502, 503, 504, network)
}

// Hooks are callbacks the loop calls (§8); a nil field is skipped, and an error ends the run.
type Hooks struct {
	// BeforeLLM runs before each model call and may replace its messages or tools.
	BeforeLLM func(ctx context.Context, ev BeforeLLMEvent) (*LLMOverride, error)
	// AfterLLM runs after each model call, to observe it (logging, cost, tracing).
	AfterLLM func(ctx context.Context, ev AfterLLMEvent) error
	// BeforeTool runs before each tool call: an override with Result short-circuits the
	// tool (it never runs, and AfterTool is not called); one with only Args rewrites the call.
	BeforeTool func(ctx context.Context, ev BeforeToolEvent) (*ToolOverride, error)
	// AfterTool runs after each tool that ran: an override with Result replaces its result.
	AfterTool func(ctx context.Context, ev AfterToolEvent) (*ToolOverride, error)
}

// AfterLLMEvent is what AfterLLM sees: Response is the provider's payload as decoded (its
// usage included); on a stream, the usage the stream reported, in the provider's names.
type AfterLLMEvent struct {
	Response map[string]any
	Model    string
	Turn     int
}

// BeforeToolEvent is what BeforeTool sees: the call as the model made it.
type BeforeToolEvent struct {
	Name string
	Args map[string]any
	ID   string
	Turn int
}

// AfterToolEvent is what AfterTool sees: the call as it ran and its result.
type AfterToolEvent struct {
	Name   string
	Args   map[string]any
	Result ToolResult
	ID     string
	Turn   int
}

// ToolOverride is what BeforeTool and AfterTool may return; nil changes nothing.
type ToolOverride struct {
	Args   map[string]any
	Result *ToolResult
}

// BeforeLLMEvent is what BeforeLLM sees; Turn counts from 0.
type BeforeLLMEvent struct {
	Messages []any // the transcript about to be sent
	Tools    []any // the tool definitions about to be sent, in the style's shape
	Model    string
	Turn     int
}

// LLMOverride replaces each non-nil field for this and later turns; an empty non-nil slice counts.
type LLMOverride struct {
	Messages []any // replaces the transcript when non-nil
	Tools    []any // replaces the tool list when non-nil; empty drops the tools keys (Gap 5)
}

// ToolCall records one tool call the model made and what the tool returned.
type ToolCall struct {
	Name     string         `json:"name"`
	Args     map[string]any `json:"args"`
	Output   string         `json:"output"`
	IsError  bool           `json:"isError"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// Usage is token usage summed over every model call of a run.
type Usage struct {
	PromptTokens     int `json:"promptTokens"`
	CompletionTokens int `json:"completionTokens"`
	TotalTokens      int `json:"totalTokens"`
}

// RunResult is the outcome of one run.
type RunResult struct {
	Text          string     `json:"text"`          // the final answer
	Messages      []any      `json:"messages"`      // the whole transcript, fit to pass back as history
	ToolCalls     []ToolCall `json:"toolCalls"`     // every call, in order
	ToolCallCount int        `json:"toolCallCount"` // len(ToolCalls)
	Turns         int        `json:"turns"`         // model calls made
	Usage         Usage      `json:"usage"`
	Model         string     `json:"model"`
	// Status is "done"; "incomplete" when MaxTurns ran out with tool calls pending; "pending"
	// when a tool suspended and no WaitFor was set (§10).
	Status string `json:"status"`
	// Limit names the limit behind an "incomplete" status ("maxTurns").
	Limit string `json:"limit,omitempty"`
	// Pending is the suspension the run halted on; set iff Status is "pending".
	Pending *Request `json:"pending,omitempty"`
}

// StreamEvent is one event of a streamed run: text, tool_call, tool_result, pending, usage,
// done or error.
type StreamEvent struct {
	Type    string         // text | tool_call | tool_result | pending | usage | done | error
	Delta   string         // text: the new fragment
	Name    string         // tool_call, tool_result: the tool
	ID      string         // tool_call, tool_result: the call id
	Args    map[string]any // tool_call: the parsed arguments
	Output  string         // tool_result: what the tool returned
	IsError bool           // tool_result: whether the tool failed
	Usage   *Usage         // usage, done: the run's usage so far
	Result  *RunResult     // done: the final result
	Err     error          // error: why the run ended
	Request *Request       // pending: what the suspended tool asks for, sent before WaitFor runs
}

// Client runs the tool-calling loop against one LLM endpoint.
type Client struct {
	opts  ClientOptions
	http  *http.Client
	store ConversationStore
	wire  wire
	err   error // a bad option, reported by every call since CreateClient cannot fail
}

// CreateClient builds a client; an invalid Style surfaces as the error of Run, Stream and Ask.
func CreateClient(opts ClientOptions) *Client {
	c := &Client{opts: opts, http: opts.HTTPClient, store: opts.Store}
	if c.http == nil {
		c.http = http.DefaultClient
	}
	if c.store == nil {
		c.store = NewInMemoryConversationStore()
	}
	switch opts.Style {
	case StyleOpenAI, "":
		c.wire = openaiWire{}
	case StyleAnthropic:
		c.wire = anthropicWire{}
	default:
		c.err = fmt.Errorf("toolnexus: ClientOptions.Style %q is not a known style (use %q or %q)", opts.Style, StyleOpenAI, StyleAnthropic)
	}
	return c
}

// ConversationStore returns the store Ask uses: the one from the options, else the client's own.
func (c *Client) ConversationStore() ConversationStore { return c.store }

// Run answers one prompt with no prior history.
func (c *Client) Run(ctx context.Context, prompt string, tk *Toolkit) (RunResult, error) {
	return c.RunWithHistory(ctx, prompt, tk, nil)
}

// RunWithHistory continues history (sent as given, system prompt included) with a new user prompt.
func (c *Client) RunWithHistory(ctx context.Context, prompt string, tk *Toolkit, history []any) (RunResult, error) {
	if c.err != nil {
		return RunResult{}, c.err
	}
	ctx, cancel := c.bound(ctx)
	defer cancel()
	return c.loop(ctx, prompt, tk, history, nil)
}

// Ask is Run with memory: a non-empty id loads that conversation first and saves the new transcript.
func (c *Client) Ask(ctx context.Context, prompt string, tk *Toolkit, id string) (RunResult, error) {
	return c.AskStream(ctx, prompt, tk, id, nil)
}

// AskStream is Ask over the streaming path, handing each text delta to onText; nil onText is Ask.
func (c *Client) AskStream(ctx context.Context, prompt string, tk *Toolkit, id string, onText func(delta string)) (RunResult, error) {
	if c.err != nil {
		return RunResult{}, c.err
	}
	if onText != nil {
		events, err := c.StreamWithID(ctx, prompt, tk, id)
		if err != nil {
			return RunResult{}, err
		}
		var res RunResult
		for ev := range events {
			switch ev.Type {
			case "text":
				onText(ev.Delta)
			case "done":
				res = *ev.Result
			case "error":
				err = ev.Err
			}
		}
		return res, err
	}
	if id == "" {
		return c.Run(ctx, prompt, tk)
	}
	history, err := c.store.Get(id)
	if err != nil {
		return RunResult{}, err
	}
	res, err := c.RunWithHistory(ctx, prompt, tk, history)
	if err != nil {
		return res, err
	}
	return res, c.store.Save(id, res.Messages)
}

// Stream runs like Run but reports progress as events; drain the channel until it closes.
func (c *Client) Stream(ctx context.Context, prompt string, tk *Toolkit) (<-chan StreamEvent, error) {
	return c.StreamWithID(ctx, prompt, tk, "")
}

// StreamWithID is Stream with Ask's memory; the transcript is saved before "done" is sent.
func (c *Client) StreamWithID(ctx context.Context, prompt string, tk *Toolkit, id string) (<-chan StreamEvent, error) {
	if c.err != nil {
		return nil, c.err
	}
	var history []any
	if id != "" {
		h, err := c.store.Get(id)
		if err != nil {
			return nil, err
		}
		history = h
	}
	out := make(chan StreamEvent, 16)
	go func() {
		defer close(out)
		ctx, cancel := c.bound(ctx)
		defer cancel()
		// Progress events are dropped once the run is cancelled, so a consumer
		// that stops reading cannot pin this goroutine mid-run.
		emit := func(ev StreamEvent) {
			select {
			case out <- ev:
			case <-ctx.Done():
			}
		}
		res, err := c.loop(ctx, prompt, tk, history, emit)
		if err == nil && id != "" {
			err = c.store.Save(id, res.Messages)
		}
		if err != nil {
			out <- StreamEvent{Type: "error", Err: err}
			return
		}
		u := res.Usage
		emit(StreamEvent{Type: "usage", Usage: &u})
		out <- StreamEvent{Type: "done", Usage: &u, Result: &res}
	}()
	return out, nil
}

// bound applies TimeoutMs on top of the caller's context.
func (c *Client) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if ctx == nil {
		ctx = context.Background()
	}
	if c.opts.TimeoutMs > 0 {
		return context.WithTimeout(ctx, time.Duration(c.opts.TimeoutMs)*time.Millisecond)
	}
	return context.WithCancel(ctx)
}

// apiKey prefers the option; the environment fallback keeps the published port's behaviour.
func (c *Client) apiKey() (string, error) {
	if c.opts.APIKey != "" {
		return c.opts.APIKey, nil
	}
	names := []string{"OPENROUTER_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"}
	if c.opts.Style == StyleAnthropic {
		names = []string{"OPENROUTER_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_API_KEY"}
	}
	for _, n := range names {
		if v := os.Getenv(n); v != "" {
			return v, nil
		}
	}
	return "", fmt.Errorf("toolnexus: ClientOptions.APIKey is empty and none of %v is set", names)
}

// loop is the tool-calling loop shared by all four paths; emit is nil when not streaming.
func (c *Client) loop(ctx context.Context, prompt string, tk *Toolkit, history []any, emit func(StreamEvent)) (RunResult, error) {
	key, err := c.apiKey()
	if err != nil {
		return RunResult{}, err
	}
	w, stream := c.wire, emit != nil
	if emit == nil {
		emit = func(StreamEvent) {}
	}
	url, headers := w.url(c.opts.BaseURL), w.headers(key)
	system := systemPrompt(c.opts.SystemPrompt, tk)
	messages := w.start(system, history, prompt)
	tools := w.toolDefs(tk)
	res := RunResult{Model: c.opts.Model, Status: "done"}
	for turn := 0; turn < c.maxTurns(); turn++ {
		res.Turns++
		if messages, tools, err = c.beforeLLM(ctx, messages, tools, turn); err != nil {
			return RunResult{}, err
		}
		body, err := c.shapeBody(w.body(c.opts.Model, system, messages, stream), tools, w.addTools)
		if err != nil {
			return RunResult{}, err
		}
		rep, err := c.exchange(ctx, url, headers, body, stream, emit)
		if err != nil {
			return RunResult{}, err
		}
		if h := c.opts.Hooks; h != nil && h.AfterLLM != nil {
			if err := h.AfterLLM(ctx, AfterLLMEvent{Response: rep.raw, Model: c.opts.Model, Turn: turn}); err != nil {
				return RunResult{}, err
			}
		}
		res.Usage.PromptTokens += rep.usage.PromptTokens
		res.Usage.CompletionTokens += rep.usage.CompletionTokens
		res.Usage.TotalTokens += rep.usage.TotalTokens
		res.Text = rep.text
		if rep.assistant != nil {
			messages = append(messages, rep.assistant)
		}
		if len(rep.calls) == 0 {
			res.Messages = messages
			res.ToolCallCount = len(res.ToolCalls)
			return res, nil
		}
		for _, tc := range rep.calls {
			emit(StreamEvent{Type: "tool_call", ID: tc.id, Name: tc.name, Args: tc.args})
		}
		outs := make([]ToolResult, len(rep.calls))
		for i, tc := range rep.calls {
			args, out, err := c.callTool(ctx, tk, tc, turn)
			var halted *Request
			if req := PendingOf(out); err == nil && req != nil {
				emit(StreamEvent{Type: "pending", ID: tc.id, Name: tc.name, Request: req})
				out, halted, err = c.resolvePending(ctx, tk, tc, args, *req, turn)
			}
			if err != nil {
				if ctx.Err() != nil {
					return RunResult{}, ctx.Err()
				}
				return RunResult{}, fmt.Errorf("toolnexus: tool %q: %w", tc.name, err)
			}
			outs[i] = out
			res.ToolCalls = append(res.ToolCalls, ToolCall{Name: tc.name, Args: args, Output: out.Output, IsError: out.IsError, Metadata: out.Metadata})
			emit(StreamEvent{Type: "tool_result", ID: tc.id, Name: tc.name, Output: out.Output, IsError: out.IsError})
			if halted != nil {
				// §10: halt on the first suspension in call order; the calls after it are
				// not run, so they suspend again (or run) when the host resumes.
				res.Messages = append(messages, w.results(rep.calls[:i+1], outs[:i+1])...)
				res.ToolCallCount = len(res.ToolCalls)
				res.Status, res.Pending = "pending", halted
				return res, nil
			}
		}
		messages = append(messages, w.results(rep.calls, outs)...)
	}
	// The cap ran out while the model still wanted tools: say so rather than
	// pass a half-finished run off as an answer.
	res.Messages = messages
	res.ToolCallCount = len(res.ToolCalls)
	res.Status, res.Limit = "incomplete", "maxTurns"
	return res, nil
}

// systemPrompt is §0.10's "systemPrompt + \n\n + skillsPrompt()", an empty part dropped
// with its separator (C9.2's pin): no system prompt sends the catalog alone, no skills the
// caller's prompt alone.
func systemPrompt(caller string, tk *Toolkit) string {
	var parts []string
	for _, p := range []string{caller, tk.SkillsPrompt()} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "\n\n")
}

// callTool runs one call between the tool hooks (§8): BeforeTool may answer for the tool
// (which then never runs, and AfterTool is not called: C10.3's pin) or rewrite its args;
// AfterTool may replace the result. It returns the args the call ran with and its result.
func (c *Client) callTool(ctx context.Context, tk *Toolkit, tc call, turn int) (map[string]any, ToolResult, error) {
	h, args := c.opts.Hooks, tc.args
	if h != nil && h.BeforeTool != nil {
		ov, err := h.BeforeTool(ctx, BeforeToolEvent{Name: tc.name, Args: args, ID: tc.id, Turn: turn})
		if err != nil {
			return args, ToolResult{}, err
		}
		if ov != nil && ov.Result != nil {
			return args, *ov.Result, nil
		}
		if ov != nil && ov.Args != nil {
			args = ov.Args
		}
	}
	out, err := tk.execute(ctx, tc.name, args, nil)
	if err != nil {
		return args, out, err
	}
	out, err = c.afterTool(ctx, tc, args, out, turn)
	return args, out, err
}

// afterTool applies the hook to a real result; a suspension is no result yet, so the hook
// sees only what it resolves to (§10).
func (c *Client) afterTool(ctx context.Context, tc call, args map[string]any, out ToolResult, turn int) (ToolResult, error) {
	h := c.opts.Hooks
	if h == nil || h.AfterTool == nil || PendingOf(out) != nil {
		return out, nil
	}
	ov, err := h.AfterTool(ctx, AfterToolEvent{Name: tc.name, Args: args, Result: out, ID: tc.id, Turn: turn})
	if err == nil && ov != nil && ov.Result != nil {
		out = *ov.Result
	}
	return out, err
}

// beforeLLM applies the hook; what it replaces stays replaced for later turns.
func (c *Client) beforeLLM(ctx context.Context, messages, tools []any, turn int) ([]any, []any, error) {
	if c.opts.Hooks == nil || c.opts.Hooks.BeforeLLM == nil {
		return messages, tools, nil
	}
	// Clipped so an append inside the hook never writes into our backing array.
	ev := BeforeLLMEvent{Messages: messages[:len(messages):len(messages)], Tools: tools[:len(tools):len(tools)], Model: c.opts.Model, Turn: turn}
	ov, err := c.opts.Hooks.BeforeLLM(ctx, ev)
	if err != nil || ov == nil {
		return messages, tools, err
	}
	if ov.Messages != nil {
		messages = ov.Messages
	}
	if ov.Tools != nil {
		tools = ov.Tools
	}
	return messages, tools, nil
}

// exchange sends one body and decodes the reply, streamed or whole.
func (c *Client) exchange(ctx context.Context, url string, headers map[string]string, body []byte, stream bool, emit func(StreamEvent)) (reply, error) {
	resp, err := c.post(ctx, url, headers, body)
	if err != nil {
		return reply{}, err
	}
	defer resp.Body.Close()
	var rep reply
	if stream {
		rep, err = c.wire.decodeStream(resp.Body, emit)
	} else {
		var raw []byte
		if raw, err = io.ReadAll(resp.Body); err == nil {
			if rep, err = c.wire.decode(raw); err == nil {
				_ = json.Unmarshal(raw, &rep.raw)
			}
		}
	}
	if err != nil && ctx.Err() != nil {
		return reply{}, ctx.Err() // the caller's cancel, not the broken read it caused
	}
	return rep, err
}

func (c *Client) maxTurns() int {
	if c.opts.MaxTurns > 0 {
		return c.opts.MaxTurns
	}
	return 10
}

// wire is everything that differs between the two provider styles.
type wire interface {
	url(base string) string
	headers(key string) map[string]string
	start(system string, history []any, prompt string) []any
	toolDefs(tk *Toolkit) []any
	body(model, system string, messages []any, stream bool) map[string]any
	addTools(body map[string]any, tools []any)
	decode(raw []byte) (reply, error)
	decodeStream(r io.Reader, emit func(StreamEvent)) (reply, error)
	results(calls []call, outs []ToolResult) []any
}

// reply is one model answer reduced to what the loop needs.
type reply struct {
	text      string
	assistant map[string]any // appended to the transcript; nil when the model sent none
	calls     []call
	usage     Usage
	raw       map[string]any // the payload for AfterLLM (decodeStream: the usage it saw)
}

// call is one tool call requested by the model.
type call struct {
	id, name string
	args     map[string]any
}
