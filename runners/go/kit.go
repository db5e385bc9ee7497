package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"

	toolnexus "github.com/muthuishere/toolnexus/golang"
)

// portVersion is stamped by prepare (-ldflags -X main.portVersion=...) with a label for the
// port it built against, e.g. a git tag.
var portVersion = "unknown"

type request struct {
	ID   int64           `json:"id"`
	Op   string          `json:"op"`
	Args json.RawMessage `json:"args"`
}

// area is what one area file declares, as `var <name>Area = registerArea(area{...})`: its
// ops, the host-function slots ("<area>.<name>", SPEC.md §3) it installs stubs for, and what
// it adds to the options of the constructors other areas own (client.create, toolkit.create).
// A package variable rather than an init: it is registered before main, after the registry
// it depends on.
type area struct {
	name           string
	ops            map[string]opFunc
	slots          []string
	clientOptions  option[toolnexus.ClientOptions]
	toolkitOptions option[toolnexus.Options]
}

// opFunc serves one request.
type opFunc func(k *kit, r request) (any, error)

// option adds an area's part to a constructor's options; handle is the object being built.
type option[O any] func(k *kit, handle string, args json.RawMessage, opts *O) error

var (
	areas   []area                // by name, so contributions apply in one order whatever the build
	opIndex = map[string]opFunc{} // op -> handler, derived from areas
)

// registerArea adds an area and returns it; a second owner of an op or a slot is a build
// mistake, refused before anything is added.
func registerArea(ar area) area {
	for name := range ar.ops {
		if _, dup := opIndex[name]; dup {
			panic("adapter: op " + name + " registered twice")
		}
	}
	for _, other := range areas {
		if other.name == ar.name || slices.ContainsFunc(ar.slots, func(s string) bool { return slices.Contains(other.slots, s) }) {
			panic(fmt.Sprintf("adapter: area %s, or one of its slots, registered twice", ar.name))
		}
	}
	maps.Copy(opIndex, ar.ops)
	i, _ := slices.BinarySearchFunc(areas, ar.name, func(x area, name string) int { return strings.Compare(x.name, name) })
	areas = slices.Insert(areas, i, ar)
	return ar
}

// decode reads an area's own argument struct; the runner has checked the arguments against
// the schema, so a handler reads only what it declares.
func decode[T any](args json.RawMessage) T {
	var x T
	_ = json.Unmarshal(args, &x)
	return x
}

// op is an opFunc over the area's own argument struct T.
func op[T any](f func(k *kit, x T, r request) (any, error)) opFunc {
	return func(k *kit, r request) (any, error) { return f(k, decode[T](r.Args), r) }
}

// optionOf is an option over the area's own argument struct T.
func optionOf[T, O any](f func(k *kit, handle string, x T, opts *O) error) option[O] {
	return func(k *kit, handle string, args json.RawMessage, opts *O) error {
		return f(k, handle, decode[T](args), opts)
	}
}

// contribute runs every area's option that pick chooses, in area order, on the constructor's
// arguments; the constructor has set its own options first.
func contribute[O any](k *kit, handle string, args json.RawMessage, opts *O, pick func(area) option[O]) error {
	for _, ar := range areas {
		if f := pick(ar); f != nil {
			if err := f(k, handle, args, opts); err != nil {
				return err
			}
		}
	}
	return nil
}

// clientOptions adds what the areas contribute to client.create; toolkitOptions to toolkit.create.
func clientOptions(k *kit, handle string, args json.RawMessage, opts *toolnexus.ClientOptions) error {
	return contribute(k, handle, args, opts, func(ar area) option[toolnexus.ClientOptions] { return ar.clientOptions })
}

func toolkitOptions(k *kit, handle string, args json.RawMessage, opts *toolnexus.Options) error {
	return contribute(k, handle, args, opts, func(ar area) option[toolnexus.Options] { return ar.toolkitOptions })
}

// kit is what every op and option gets: the host callback and the handles that live between
// requests. Requests are served one at a time.
type kit struct {
	host    *host
	handles *handles
}

func newKit(h *host) *kit { return &kit{host: h, handles: newHandles()} }

// handle runs one op with the library's warnings captured and returns the response line; a
// panic is the adapter's fault and answered, so one op cannot end the process.
func (k *kit) handle(req request) []byte {
	var result any
	var err error
	warnings := captureWarnings(func() {
		defer func() {
			if p := recover(); p != nil {
				err = adapterErr("failed", fmt.Sprintf("adapter: panic in %s: %v", req.Op, p))
			}
		}()
		if f, ok := opIndex[req.Op]; ok {
			result, err = f(k, req)
		} else {
			err = adapterErr("unsupported", "adapter: unknown op "+req.Op)
		}
	})
	resp := map[string]any{"id": req.ID, "ok": err == nil, "warnings": warnings}
	if err != nil {
		resp["error"] = relay(err)
	} else if resp["result"] = result; result == nil {
		resp["result"] = map[string]any{}
	}
	b, merr := json.Marshal(resp)
	if merr != nil {
		b, _ = json.Marshal(map[string]any{"id": req.ID, "ok": false, "warnings": warnings,
			"error": errorBody{Kind: "failed", Message: "adapter: cannot encode result: " + merr.Error()}})
	}
	return b
}

// The kit's own ops: hello lists the ops sorted and the slots area by area; shutdown is
// answered, and serve ends.
var kitArea = registerArea(area{name: "kit", ops: map[string]opFunc{
	"hello": func(*kit, request) (any, error) {
		slots := []string{}
		for _, ar := range areas {
			slots = append(slots, ar.slots...)
		}
		return map[string]any{"port": "go", "library": "toolnexus", "version": portVersion, "runtime": runtime.Version(),
			"ops": slices.Sorted(maps.Keys(opIndex)), "slots": slots}, nil
	},
	"shutdown": func(*kit, request) (any, error) { return nil, nil },
}})
