package transport

import (
	"fmt"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/client"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

// Steps for base URLs that already carry /v1 or a trailing slash: where each request went
// under the fake's route.
func registerBaseURLSteps(sc *kernel.Steps) {
	sc.Step(`^an? (openai|anthropic) client whose base URL ends in "([^"]*)"$`, (*World).clientWithBaseSuffix)
	sc.Step(`^every LLM request went to "([^"]*)" under the fake's route$`, (*World).everyRequestWentTo)
	sc.Step(`^the last LLM request does not carry the message "([^"]*)"$`, (*World).lastRequestLacks)
}

func (w *World) clientWithBaseSuffix(style, suffix string) error {
	if err := w.AClient(style); err != nil {
		return err
	}
	w.client().Client["baseUrl"] = w.client().Route.BaseURL() + suffix
	return nil
}

// everyRequestWentTo checks each recorded request's path below the route prefix.
func (w *World) everyRequestWentTo(path string) error {
	reqs := w.client().Route.Requests()
	if len(reqs) == 0 {
		return fmt.Errorf("the fake LLM got no request")
	}
	for i, r := range reqs {
		if got := strings.TrimPrefix(r.Path, w.client().Route.Prefix()); got != path {
			return fmt.Errorf("LLM request %d went to %q under the route; want %q", i+1, got, path)
		}
	}
	return nil
}

func (w *World) lastRequestLacks(text string) error {
	bodies, err := client.Bodies(w.A)
	if err != nil {
		return err
	}
	msgs, _ := bodies[len(bodies)-1]["messages"].([]any)
	for i, m := range msgs {
		if strings.Contains(common.MessageText(m), text) {
			return fmt.Errorf("message %d of the last LLM request still carries %q: %q", i+1, text, common.MessageText(m))
		}
	}
	return nil
}
