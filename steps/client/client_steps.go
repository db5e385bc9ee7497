package client

import (
	"fmt"
	"maps"

	llmfake "github.com/muthuishere/toolnexus-conformance/fakes/llm"
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

func registerClientSteps(sc *kernel.Steps) {
	sc.Step(`^an? (openai|anthropic) client$`, (*World).AClient)
	sc.Step(`^an empty toolkit$`, (*World).emptyToolkit)
	sc.Step(`^the fake LLM first calls the tool "([^"]*)" and then answers "([^"]*)"$`, (*World).scriptToolThenText)
	sc.Step(`^the client runs "([^"]*)" in (run|stream) mode$`, (*World).runs)
	sc.Step(`^the client asks "([^"]*)" in conversation "([^"]*)"$`, (*World).asks)
	sc.Step(`^the client asks "([^"]*)" without a conversation id$`, func(w *World, prompt string) error { return w.asks(prompt, "") })
	sc.Step(`^the run made (\d+) LLM requests?$`, (*World).requestCount)
}

// AClient describes the scenario's client against the fake LLM's route; it is created on
// first use, with what the other areas added.
func (w *World) AClient(style string) error {
	w.State().Client = map[string]any{
		"handle": w.Handle("c"), "baseUrl": w.State().Route.BaseURL(), "style": style,
		"model": "conformance-model", "apiKey": "test-key",
	}
	return nil
}

// EchoTool is the host tool scenarios hand the model; its output is recognisable on the wire.
// Its execute calls back and returns name + "-output".
func EchoTool(name string) map[string]any {
	return map[string]any{
		"name": name, "description": "returns a fixed text",
		"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}},
	}
}

func (w *World) emptyToolkit() error {
	h := w.Handle("t")
	if _, err := w.Must("toolkit.create", map[string]any{"handle": h}); err != nil {
		return err
	}
	w.TK().Current = h
	w.TK().All = append(w.TK().All, h)
	return nil
}

func (w *World) scriptToolThenText(tool, text string) error {
	w.State().Route.Script(
		llmfake.Reply{ToolCalls: []llmfake.ToolCall{{Name: tool, Args: map[string]any{"text": "from the model"}}}},
		llmfake.Reply{Text: text},
	)
	return nil
}

// EnsureClient sends client.create once: the description, and the arguments other areas set
// with kernel.SetOption (sealed from then on).
func (w *World) EnsureClient() error {
	s := w.State()
	if s.Client == nil {
		return fmt.Errorf("harness: scenario uses a client it never described")
	}
	if s.clientReady {
		return nil
	}
	args := maps.Clone(s.Client)
	maps.Copy(args, kernel.OptionsOf(w.A, "client.create"))
	kernel.Seal(w.A, "client.create")
	if _, err := w.Must("client.create", args); err != nil {
		return err
	}
	s.clientReady, s.Sent = true, args
	return nil
}

func (w *World) runs(prompt, mode string) error { return w.runWith(prompt, mode, nil) }

// runWith is a client.run with the options other areas add (cancelAfterMs, id).
func (w *World) runWith(prompt, mode string, extra map[string]any) error {
	return w.call("client.run", w.State().Client["handle"], prompt, map[string]any{"stream": mode == "stream"}, extra)
}

func (w *World) asks(prompt, id string) error {
	if id == "" {
		return w.call("client.ask", w.State().Client["handle"], prompt, nil)
	}
	return w.call("client.ask", w.State().Client["handle"], prompt, map[string]any{"id": id})
}

// call is a client.run or client.ask on client with the scenario's toolkit and the options
// given; a result is kept as every run's is.
func (w *World) call(op string, client any, prompt string, opts ...map[string]any) error {
	if err := w.EnsureClient(); err != nil {
		return err
	}
	args := map[string]any{"client": client, "prompt": prompt}
	if w.TK().Current != "" {
		args["toolkit"] = w.TK().Current
	}
	for _, o := range opts {
		maps.Copy(args, o)
	}
	r, err := w.Call(op, args)
	if err != nil {
		return err
	}
	if r.OK {
		w.State().Results = append(w.State().Results, r.Result)
	}
	return nil
}

// Bodies are the decoded bodies the fake LLM recorded for this scenario.
func (w *World) Bodies() ([]map[string]any, error) {
	var out []map[string]any
	for i, r := range w.State().Route.Requests() {
		if r.Body == nil {
			return nil, fmt.Errorf("LLM request %d was not a JSON object: %q", i+1, common.ClipString(string(r.Raw), 200))
		}
		out = append(out, r.Body)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the fake LLM received no request")
	}
	return out, nil
}

// Body is LLM request n (counted from 1), decoded.
func (w *World) Body(n int) (map[string]any, error) {
	bodies, err := w.Bodies()
	if err != nil {
		return nil, err
	}
	if n < 1 || n > len(bodies) {
		return nil, fmt.Errorf("the fake LLM received %d requests; there is no request %d", len(bodies), n)
	}
	return bodies[n-1], nil
}

func (w *World) requestCount(n int) error {
	if got := len(w.State().Route.Requests()); got != n {
		return fmt.Errorf("the fake LLM received %d requests; want %d", got, n)
	}
	return nil
}
