package contract

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/common"

	"github.com/cucumber/godog"

	"github.com/muthuishere/toolnexus-conformance/fakes/endpoint"
)

// Steps of the HTTP endpoint fake that http tools call (contract C8): what it answers and
// what it recorded, raw.
func registerContractHTTPSteps(sc *kernel.Steps) {
	sc.Step(`^the endpoint answers "([^"]*)" with status (\d+) and the body "([^"]*)"$`, (*World).endpointAnswers)
	sc.Step(`^the endpoint answers "([^"]*)" with status (\d+) and the body:$`, (*World).endpointAnswersDoc)
	sc.Step(`^the endpoint's /slow answers after (\d+) ms$`, (*World).endpointSlow)
	sc.Step(`^the endpoint received (GET|POST|PUT|DELETE) with the raw path "([^"]*)"$`, (*World).endpointMethodPath)
	sc.Step(`^the endpoint received the raw query "([^"]*)"$`, (*World).endpointRawQuery)
	sc.Step(`^the endpoint received a query that decodes to (.+)$`, (*World).endpointQueryDecodes)
	sc.Step(`^the endpoint received a body that decodes to (.+)$`, (*World).endpointBodyDecodes)
	sc.Step(`^the endpoint received an empty body$`, (*World).endpointEmptyBody)
	sc.Step(`^the endpoint received the header "([^"]*)" starting with "([^"]*)"$`, (*World).endpointHeaderPrefix)
	sc.Step(`^the endpoint received the header "([^"]*)" as "([^"]*)"$`, (*World).endpointHeader)
	sc.Step(`^the client gave up on the endpoint before it answered$`, (*World).endpointGaveUp)
}

func (w *World) endpointAnswers(path string, status int, body string) error {
	return w.EndpointAnswers(path, endpoint.Answer{Status: status, Body: body})
}

// EndpointAnswers scripts the scenario's HTTP endpoint fake (the areas built on this one use
// it too: the built-in webfetch).
func (w *World) EndpointAnswers(path string, a endpoint.Answer) error {
	r, err := w.endpoint()
	if err != nil {
		return err
	}
	r.Handle(path, a)
	return nil
}

func (w *World) endpointAnswersDoc(path string, status int, doc *godog.DocString) error {
	return w.endpointAnswers(path, status, doc.Content)
}

func (w *World) endpointSlow(ms int) error {
	r, err := w.endpoint()
	if err != nil {
		return err
	}
	r.SetSlowDelay(time.Duration(ms) * time.Millisecond)
	return nil
}

// lastEndpointRequest is the last request the scenario's endpoint received.
func (w *World) lastEndpointRequest() (endpoint.Request, error) {
	if w.mcp().Endpoint == nil {
		return endpoint.Request{}, fmt.Errorf("harness: the scenario has no HTTP endpoint")
	}
	reqs := w.mcp().Endpoint.Requests()
	if len(reqs) == 0 {
		return endpoint.Request{}, fmt.Errorf("the endpoint received no request")
	}
	return reqs[len(reqs)-1], nil
}

func (w *World) endpointMethodPath(method, path string) error {
	r, err := w.lastEndpointRequest()
	if err != nil {
		return err
	}
	if r.Method != method || r.RawPath != path {
		return fmt.Errorf("the endpoint received %s %q; want %s %q", r.Method, r.RawPath, method, path)
	}
	return nil
}

func (w *World) endpointRawQuery(q string) error {
	r, err := w.lastEndpointRequest()
	if err != nil {
		return err
	}
	if r.RawQuery != q {
		return fmt.Errorf("the endpoint received the query %q; want %q", r.RawQuery, q)
	}
	return nil
}

// endpointQueryDecodes compares the decoded query with a JSON object of strings (each key
// once).
func (w *World) endpointQueryDecodes(raw string) error {
	r, err := w.lastEndpointRequest()
	if err != nil {
		return err
	}
	vals, err := url.ParseQuery(r.RawQuery)
	if err != nil {
		return fmt.Errorf("the endpoint received a query that does not decode (%q): %v", r.RawQuery, err)
	}
	got := map[string]any{}
	for k, v := range vals {
		if len(v) == 1 {
			got[k] = v[0]
		} else {
			got[k] = v
		}
	}
	return common.SameJSON(fmt.Sprintf("the query %q", r.RawQuery), raw, got)
}

func (w *World) endpointBodyDecodes(raw string) error {
	r, err := w.lastEndpointRequest()
	if err != nil {
		return err
	}
	var v any
	dec := json.NewDecoder(strings.NewReader(string(r.Body)))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("the endpoint received a body that is not JSON: %q", r.Body)
	}
	return common.SameJSON("the request body", raw, v)
}

func (w *World) endpointEmptyBody() error {
	r, err := w.lastEndpointRequest()
	if err != nil {
		return err
	}
	if len(r.Body) != 0 {
		return fmt.Errorf("the endpoint received the body %q; want none", r.Body)
	}
	return nil
}

func (w *World) endpointHeader(name, value string) error {
	r, err := w.lastEndpointRequest()
	if err != nil {
		return err
	}
	if got := r.Header.Values(name); len(got) != 1 || got[0] != value {
		return fmt.Errorf("the endpoint received %s: %q; want %q", name, got, value)
	}
	return nil
}

func (w *World) endpointHeaderPrefix(name, prefix string) error {
	r, err := w.lastEndpointRequest()
	if err != nil {
		return err
	}
	if got := r.Header.Get(name); !strings.HasPrefix(strings.ToLower(got), strings.ToLower(prefix)) {
		return fmt.Errorf("the endpoint received %s: %q; want it to start with %q", name, got, prefix)
	}
	return nil
}

// endpointGaveUp judges a timeout by the fake's own record: the client closed the request
// before the delayed answer was due, which a port that ignores its timeout never does.
func (w *World) endpointGaveUp() error {
	if _, err := w.lastEndpointRequest(); err != nil {
		return err
	}
	// The fake notes the hang-up on its own goroutine, a moment after the port returned.
	gaveUp := common.WaitFor(2*time.Second, func() bool {
		r, _ := w.lastEndpointRequest()
		return r.GaveUpAfter > 0
	})
	if !gaveUp {
		return fmt.Errorf("the client waited for the endpoint's delayed answer; want it to give up at its timeout")
	}
	return nil
}
