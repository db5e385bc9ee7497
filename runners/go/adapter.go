package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	toolnexus "github.com/muthuishere/toolnexus/golang"
)

// modulePath is the library module whose replacement hello reports.
const modulePath = "github.com/muthuishere/toolnexus/golang"

// portVersion is stamped by prepare (-ldflags -X main.portVersion=...) with a
// label for the port it built against, e.g. a git tag; empty when unknown.
var portVersion string

// adapter holds the handles that live between requests. Requests are served
// one at a time, so the maps need no lock; per-client recorders do, because
// the library may call hooks from its own goroutines.
type adapter struct {
	clients  map[string]*clientEntry
	toolkits map[string]*toolnexus.Toolkit
}

// newAdapter returns an adapter with no handles.
func newAdapter() *adapter {
	return &adapter{clients: map[string]*clientEntry{}, toolkits: map[string]*toolnexus.Toolkit{}}
}

// closeAll closes every toolkit so stdio MCP children do not outlive the
// adapter; bounded, because the runner kills the process group anyway.
func (a *adapter) closeAll(limit time.Duration) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for name, tk := range a.toolkits {
			tk.Close()
			delete(a.toolkits, name)
		}
	}()
	select {
	case <-done:
	case <-time.After(limit):
	}
}

// decodeArgs decodes args strictly: a field this adapter does not know is an
// argument it cannot express, hence "unsupported".
func decodeArgs(raw json.RawMessage, v any) error {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		raw = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		// SPEC.md §3: an argument this adapter does not know is "unsupported", named.
		if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			return unsupportedf("adapter: unknown argument %s", name)
		}
		return &opError{kind: kindFailed, msg: "adapter: bad args: " + err.Error()}
	}
	return nil
}

// opHello reports who this adapter is and which ops it serves.
func opHello(a *adapter, args json.RawMessage) (any, error) {
	if err := decodeArgs(args, &struct{}{}); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(ops))
	for name := range ops {
		names = append(names, name)
	}
	sort.Strings(names)
	return map[string]any{
		"port":    "go",
		"library": "toolnexus",
		"version": libraryVersion(),
		"runtime": runtime.Version(),
		"ops":     names,
	}, nil
}

// libraryVersion names the toolnexus build linked in: the module version and,
// since the harness always builds through a replace, the directory it came from.
func libraryVersion() string {
	v := "unknown"
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, d := range info.Deps {
			if d.Path != modulePath {
				continue
			}
			v = d.Version
			if d.Replace != nil {
				v += " (replaced by " + d.Replace.Path + ")"
			}
		}
	}
	if portVersion != "" {
		// prepare's label (release tag, declared version, or "reference (harness …)") says
		// more than the replaced module's v0.0.0.
		return portVersion
	}
	return v
}

// lookupClient finds a client handle; a missing one is the runner's mistake.
func (a *adapter) lookupClient(handle string) (*clientEntry, error) {
	c, ok := a.clients[handle]
	if !ok {
		return nil, errors.New("adapter: unknown client handle " + handle)
	}
	return c, nil
}

// lookupToolkit finds a toolkit handle; "" means none was named.
func (a *adapter) lookupToolkit(handle string) (*toolnexus.Toolkit, error) {
	if handle == "" {
		return nil, nil
	}
	tk, ok := a.toolkits[handle]
	if !ok {
		return nil, errors.New("adapter: unknown toolkit handle " + handle)
	}
	return tk, nil
}
