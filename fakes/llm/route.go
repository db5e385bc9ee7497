package llm

import (
	"encoding/json"
	"maps"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/muthuishere/toolnexus-conformance/fakes/internal/httpfake"
)

// Route is one scenario's slice of the server: its own prefix, script and
// request log.
type Route struct {
	prefix string
	base   string
	log    httpfake.Log

	mu      sync.Mutex
	script  []Reply
	always  *Reply // served once the script is empty (nil: the text "ok")
	answers int    // answers built so far; numbers the response ids
	callIDs int    // tool call ids generated so far
}

// Prefix is the route's path prefix, e.g. "/s/7".
func (r *Route) Prefix() string { return r.prefix }

// BaseURL is the server URL plus the prefix: the client's base URL.
func (r *Route) BaseURL() string { return r.base + r.prefix }

// Script appends replies to the route's queue. They are served in order, one
// per answered request, whatever the style or streaming of the request; once
// the queue is empty every request gets the plain text reply "ok".
func (r *Route) Script(replies ...Reply) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.script = append(r.script, replies...)
}

// Always makes reply the answer to every request once the script is empty: a
// model that, say, calls a tool on every turn.
func (r *Route) Always(reply Reply) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.always = &reply
}

// Requests returns copies of the recorded requests, in arrival order.
func (r *Route) Requests() []Request {
	arrivals := r.log.All()
	out := make([]Request, len(arrivals))
	for i, a := range arrivals {
		out[i] = r.request(a)
	}
	return out
}

// request is what the LLM fake makes of a recorded arrival: the body decoded (a fresh tree
// per call, so callers can neither see later changes nor make any), the style from the path.
func (r *Route) request(a httpfake.Arrival) Request {
	q := Request{
		Method:      a.Method,
		Path:        a.Path,
		Header:      a.Header,
		Raw:         a.Body,
		Style:       styleOf(strings.TrimPrefix(a.Path, r.prefix)),
		At:          a.At,
		GaveUpAfter: a.GaveUpAfter,
	}
	if json.Unmarshal(a.Body, &q.Body) != nil {
		q.Body = nil // a partial decode must not pass for the real body
	}
	q.Stream = q.Body["stream"] == true
	return q
}

// next pops the next scripted reply.
func (r *Route) next() Reply {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.script) == 0 {
		if r.always != nil {
			return *r.always
		}
		return Reply{Text: "ok"}
	}
	reply := r.script[0]
	r.script = r.script[1:]
	return reply
}

// answer is a reply made concrete for one request: ids assigned, arguments
// encoded. Both styles render it.
type answer struct {
	n          int // per-route answer number, for "chatcmpl-<n>" / "msg_<n>"
	model      string
	created    int64
	text       string
	pieces     []string // streamed text deltas; nil: pieces(text)
	interleave bool
	calls      []call
	usage      Usage
	stop       string    // anthropic's stop_reason when set
	reasoning  string    // openai's reasoning_content when set
	thinking   *Thinking // anthropic's first block when set
	noSpace    bool      // SSE lines as "data:{…}"
	repeatIDs  bool      // openai stream: id on every argument fragment
	usageTwice bool      // openai stream: usage on the finish chunk too
	deltaInput bool      // anthropic stream: input_tokens in message_delta too
	crlf       bool      // SSE lines ended with CR LF
	lastFirst  bool      // openai interleaved stream: calls opened last index first
}

type call struct {
	id    string
	name  string
	args  string          // the arguments as a JSON text (openai)
	raw   json.RawMessage // when set, openai's "arguments" value exactly
	input map[string]any  // the arguments as an object (anthropic)
}

// answer numbers the reply and generates missing tool call ids. Ids count per
// route so a scenario sees the same ids on every port and every run.
func (r *Route) answer(reply Reply, style string, model any) answer {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.answers++
	a := answer{n: r.answers, created: time.Now().Unix(), text: reply.Text, usage: Usage{Prompt: promptTokens, Completion: completionTokens}}
	if reply.Usage != nil {
		a.usage = *reply.Usage
	}
	if reply.TextPieces != nil {
		a.text, a.pieces = strings.Join(reply.TextPieces, ""), reply.TextPieces
	}
	a.interleave, a.stop = reply.Interleave, reply.StopReason
	a.reasoning, a.thinking = reply.ReasoningContent, reply.Thinking
	a.noSpace, a.repeatIDs, a.usageTwice, a.deltaInput = reply.DataNoSpace, reply.RepeatCallIDs, reply.UsageTwice, reply.DeltaInputTokens
	a.crlf, a.lastFirst = reply.CRLF, reply.LastOpenedFirst
	a.model, _ = model.(string)
	if a.model == "" {
		a.model = "fake-model" // some clients refuse a response without one
	}
	for _, tc := range reply.ToolCalls {
		c := call{id: tc.ID, name: tc.Name, input: maps.Clone(tc.Args)}
		if c.input == nil {
			c.input = map[string]any{}
		}
		if c.id == "" {
			r.callIDs++
			prefix := "call_"
			if style == StyleAnthropic {
				prefix = "toolu_"
			}
			c.id = prefix + strconv.Itoa(r.callIDs)
		}
		b, err := json.Marshal(c.input)
		if err != nil {
			// A test scripted something unencodable; send an empty object
			// rather than fail the whole answer.
			b, c.input = []byte("{}"), map[string]any{}
		}
		c.args, c.raw = string(b), tc.RawArguments
		a.calls = append(a.calls, c)
	}
	return a
}
