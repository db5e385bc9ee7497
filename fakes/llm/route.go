package llm

import (
	"encoding/json"
	"maps"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Route is one scenario's slice of the server: its own prefix, script and
// request log.
type Route struct {
	prefix string
	base   string

	mu      sync.Mutex
	script  []Reply
	always  *Reply // served once the script is empty (nil: the text "ok")
	reqs    []Request
	answers int // answers built so far; numbers the response ids
	callIDs int // tool call ids generated so far
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
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Request, len(r.reqs))
	for i, q := range r.reqs {
		out[i] = q.clone()
	}
	return out
}

// record keeps a request and returns its index.
func (r *Route) record(q Request) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs = append(r.reqs, q.clone())
	return len(r.reqs) - 1
}

// gaveUp notes that the client closed request i after d without its answer.
func (r *Route) gaveUp(i int, d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs[i].GaveUpAfter = d
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

// clone deep-copies a request so callers can neither see later changes nor
// make any. Body is decoded again from Raw: the cheapest deep copy of an
// arbitrary JSON tree.
func (q Request) clone() Request {
	c := q
	c.Header = q.Header.Clone()
	if c.Header == nil {
		c.Header = http.Header{}
	}
	c.Raw = append([]byte(nil), q.Raw...)
	c.Body = nil
	if q.Body != nil {
		_ = json.Unmarshal(c.Raw, &c.Body)
	}
	return c
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
