package llm

import (
	"fmt"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
	"maps"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"

	"github.com/cucumber/godog"

	llmfake "github.com/muthuishere/toolnexus-conformance/fakes/llm"
)

func registerClientSteps(sc *kernel.Steps) {
	sc.Step(`^an? (openai|anthropic) client$`, (*World).AClient)
	sc.Step(`^an? (openai|anthropic) client with request params:$`, (*World).aClientWithParams)
	sc.Step(`^the client has request params:$`, (*World).requestParams)
	sc.Step(`^a body transform that records what it sees$`, (*World).transformRecords)
	sc.Step(`^a body transform that deletes "([^"]*)" and sets "([^"]*)" to "([^"]*)"$`, (*World).transformDeleteSet)
	sc.Step(`^a body transform that appends "([^"]*)" to the last user message$`, (*World).transformAppend)
	sc.Step(`^a body transform that returns null$`, (*World).transformNull)
	sc.Step(`^a body transform that edits its input in place: it appends "([^"]*)" to the last user message and sets "([^"]*)" to "([^"]*)" inside "([^"]*)"$`, (*World).transformInPlace)
	sc.Step(`^a BeforeLLM hook that replaces the last user message with "([^"]*)"$`, (*World).hookReplaces)
	sc.Step(`^a BeforeLLM hook that returns an empty tool list$`, (*World).hookEmptyTools)
	sc.Step(`^a BeforeLLM hook that, on turn (\d+), returns only the tool "([^"]*)"$`, (*World).hookKeepsTool)
	sc.Step(`^an empty toolkit$`, (*World).emptyToolkit)
	sc.Step(`^the fake LLM first calls the tool "([^"]*)" and then answers "([^"]*)"$`, (*World).scriptToolThenText)
	sc.Step(`^the client runs "([^"]*)" in (run|stream) mode$`, (*World).runs)
	sc.Step(`^the client asks "([^"]*)" in conversation "([^"]*)"$`, (*World).asks)
	sc.Step(`^the client asks "([^"]*)" without a conversation id$`, func(w *World, prompt string) error { return w.asks(prompt, "") })
}

func (w *World) AClient(style string) error {
	w.llm().Client = map[string]any{
		"handle": w.Handle("c"), "baseUrl": w.llm().Route.BaseURL(), "style": style,
		"model": "conformance-model", "apiKey": "test-key",
	}
	return nil
}

func (w *World) aClientWithParams(style string, doc *godog.DocString) error {
	if err := w.AClient(style); err != nil {
		return err
	}
	return w.requestParams(doc)
}

// setClient sets one of this area's client.create arguments; other areas set theirs with
// kernel.SetOption, merged in when the client is created.
func (w *World) setClient(key string, v any) error {
	if w.llm().Client == nil {
		return fmt.Errorf("harness: scenario sets %q before naming a client", key)
	}
	if w.llm().clientReady {
		return fmt.Errorf("harness: scenario sets %q after the client was created", key)
	}
	w.llm().Client[key] = v
	return nil
}

func (w *World) requestParams(doc *godog.DocString) error {
	var m map[string]any
	if err := common.StepJSON(doc.Content, &m); err != nil {
		return fmt.Errorf("harness: request params are not a JSON object: %w", err)
	}
	return w.setClient("requestParams", m)
}

func (w *World) transform() map[string]any {
	t, _ := w.llm().Client["bodyTransform"].(map[string]any)
	if t == nil {
		t = map[string]any{}
		_ = w.setClient("bodyTransform", t)
	}
	return t
}

func (w *World) transformRecords() error {
	if w.llm().Client == nil {
		return fmt.Errorf("harness: body transform before a client")
	}
	w.transform()
	return nil
}

func (w *World) transformDeleteSet(del, key, val string) error {
	if err := w.transformRecords(); err != nil {
		return err
	}
	t := w.transform()
	t["delete"] = []any{del}
	t["set"] = map[string]any{key: val}
	return nil
}

func (w *World) transformAppend(suffix string) error {
	if err := w.transformRecords(); err != nil {
		return err
	}
	w.transform()["appendToLastUser"] = suffix
	return nil
}

// transformInPlace is the consumer's GLM rewrite (ADR A4/A6): it edits the very object it
// was given, a nested RequestParams value included, and returns that same object.
func (w *World) transformInPlace(suffix, key, val, in string) error {
	if err := w.transformRecords(); err != nil {
		return err
	}
	t := w.transform()
	t["inPlace"] = true
	t["appendToLastUser"] = suffix
	t["setNested"] = map[string]any{in: map[string]any{key: val}}
	return nil
}

func (w *World) transformNull() error {
	if err := w.transformRecords(); err != nil {
		return err
	}
	w.transform()["returnNull"] = true
	return nil
}

func (w *World) hook() map[string]any {
	h, _ := w.llm().Client["beforeLLM"].(map[string]any)
	if h == nil {
		h = map[string]any{}
		_ = w.setClient("beforeLLM", h)
	}
	return h
}

func (w *World) hookReplaces(content string) error {
	if w.llm().Client == nil {
		return fmt.Errorf("harness: hook before a client")
	}
	w.hook()["setLastUserContent"] = content
	return nil
}

func (w *World) hookEmptyTools() error {
	if w.llm().Client == nil {
		return fmt.Errorf("harness: hook before a client")
	}
	w.hook()["tools"] = []any{}
	return nil
}

func (w *World) hookKeepsTool(turn int, name string) error {
	if w.llm().Client == nil {
		return fmt.Errorf("harness: hook before a client")
	}
	w.hook()["keepTools"] = map[string]any{"turn": turn, "name": name}
	return nil
}

// EchoTool is the host tool scenarios hand the model; its output is recognisable on the wire.
// Its execute calls back (host_functions.go) and returns name + "-output".
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
	w.llm().Route.Script(
		llmfake.Reply{ToolCalls: []llmfake.ToolCall{{Name: tool, Args: map[string]any{"text": "from the model"}}}},
		llmfake.Reply{Text: text},
	)
	return nil
}

// ensureClient sends client.create once, with everything the Given steps collected.
func (w *World) ensureClient() error {
	if w.llm().Client == nil {
		return fmt.Errorf("harness: scenario uses a client it never described")
	}
	if w.llm().clientReady {
		return nil
	}
	for k, v := range kernel.OptionsOf(w.A, "client.create") {
		w.llm().Client[k] = v
	}
	kernel.Seal(w.A, "client.create")
	if _, err := w.Must("client.create", w.llm().install(w.llm().Client)); err != nil {
		return err
	}
	w.llm().clientReady = true
	return nil
}

func (w *World) runs(prompt, mode string) error { return w.runWith(prompt, mode, nil) }

// runWith is a client.run with the options other areas add (cancelAfterMs, id).
func (w *World) runWith(prompt, mode string, extra map[string]any) error {
	return w.call("client.run", w.llm().Client["handle"], prompt, map[string]any{"stream": mode == "stream"}, extra)
}

func (w *World) asks(prompt, id string) error {
	if id == "" {
		return w.call("client.ask", w.llm().Client["handle"], prompt, nil)
	}
	return w.call("client.ask", w.llm().Client["handle"], prompt, map[string]any{"id": id})
}

// call is a client.run or client.ask on client with the scenario's toolkit and the options
// given; a result is kept as every run's is.
func (w *World) call(op string, client any, prompt string, opts ...map[string]any) error {
	if err := w.ensureClient(); err != nil {
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
		w.llm().Results = append(w.llm().Results, r.Result)
	}
	return nil
}
