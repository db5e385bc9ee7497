package adapter

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/errkind"
)

// TestCallbackAnsweredOnFD3: a host function called during a request is answered on the
// callback pipe, and the request's relayed error is judged by the port's table.
func TestCallbackAnsweredOnFD3(t *testing.T) {
	p := start(t, "callback", 10*time.Second)
	table, err := errkind.Parse("t.json", []byte(`{"rules": [{"kind": "cancelled", "is": ["chaos.Cancel"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	p.cfg.Errors = table
	if _, err := p.Call(context.Background(), "hello", nil); err != nil {
		t.Fatal(err)
	}
	var saw string
	host := func(fn string, args json.RawMessage) Answer {
		saw = fn + " " + string(args)
		return Answer{Value: "pong"}
	}
	r, err := p.CallHost(context.Background(), "toolkit.close", closeArgs, host)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(saw, `contract.tool {"toolkit":"t"`) {
		t.Errorf("host saw %q", saw)
	}
	if r.OK || r.Error.Kind != "cancelled" || !strings.Contains(r.Error.Message, `"return":"pong"`) {
		t.Errorf("response %+v", r.Error)
	}
}

// TestCallbackWithoutHostIsRefused: no host function installed is an error answer, not a hang.
func TestCallbackWithoutHostIsRefused(t *testing.T) {
	p := start(t, "callback", 10*time.Second)
	if _, err := p.Call(context.Background(), "hello", nil); err != nil {
		t.Fatal(err)
	}
	r, err := p.Call(context.Background(), "toolkit.close", closeArgs)
	if err != nil || r.OK || !strings.Contains(r.Error.Message, `no host function`) || r.Error.Kind != "failed" {
		t.Fatalf("r=%+v err=%v", r, err)
	}
}

// TestBadCallbackBreaksTheAdapter: a callback outside the schema is a protocol fault.
func TestBadCallbackBreaksTheAdapter(t *testing.T) {
	p := start(t, "bad-callback", 10*time.Second)
	if _, err := p.Call(context.Background(), "hello", nil); err != nil {
		t.Fatal(err)
	}
	_, err := p.Call(context.Background(), "toolkit.close", closeArgs)
	var b *Broken
	if !errors.As(err, &b) || !strings.Contains(b.What, "with a callback") {
		t.Fatalf("err = %v", err)
	}
}
