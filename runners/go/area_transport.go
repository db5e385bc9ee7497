package main

import (
	"net/http"
	"time"

	toolnexus "github.com/muthuishere/toolnexus/golang"
)

// The transport area: the recording HTTP client (slot transport.http).

const slotHTTP = "transport.http"

var transportArea = registerArea(area{name: "transport", slots: []string{slotHTTP}, clientOptions: optionOf(recordingClient)})

// transportArgs are client.create's HTTP client options.
type transportArgs struct {
	HTTPClient    string `json:"httpClient"`
	HTTPTimeoutMs int    `json:"httpTimeoutMs"`
}

// recordingClient passes the host's whole client, its own Timeout included, when asked.
func recordingClient(k *kit, client string, x transportArgs, opts *toolnexus.ClientOptions) error {
	if x.HTTPClient == "recording" {
		opts.HTTPClient = &http.Client{Transport: transport{k.host, client}, Timeout: time.Duration(x.HTTPTimeoutMs) * time.Millisecond}
	}
	return nil
}

// transport calls back before each request, then sends it the default way.
type transport struct {
	h      *host
	client string
}

func (t transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if _, err := t.h.call(slotHTTP, map[string]any{"client": t.client, "method": req.Method, "url": req.URL.String()}, nil); err != nil {
		return nil, err
	}
	return http.DefaultTransport.RoundTrip(req)
}
