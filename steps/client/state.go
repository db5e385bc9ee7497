package client

import (
	llmfake "github.com/muthuishere/toolnexus-conformance/fakes/llm"
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// State is the client the scenario runs: the fake LLM's route for the attempt, the client's
// description until client.create is sent, and what its runs returned.
type State struct {
	Route       *llmfake.Route
	Client      map[string]any // client.create's base arguments; other areas add theirs with kernel.SetOption
	clientReady bool
	Sent        map[string]any   // the arguments client.create was sent with, the areas' options included
	Results     []map[string]any // results of client.run / client.ask
}

func (s *State) Init(a *kernel.Attempt) { s.Route = a.Shared("client").(*llmfake.Server).NewRoute() }

// Evidence puts every body the fake LLM received in the outcome.
func (s *State) Evidence(o *result.Outcome) {
	for _, r := range s.Route.Requests() {
		o.Bodies = append(o.Bodies, r.Body)
	}
}

// RanRequests are the client.run / client.ask requests that returned a result, in order,
// with what their host functions saw.
func RanRequests(a *kernel.Attempt) []kernel.Request {
	var out []kernel.Request
	for _, r := range a.Requests() {
		if r.OK && (r.Op == "client.run" || r.Op == "client.ask") {
			out = append(out, r)
		}
	}
	return out
}
