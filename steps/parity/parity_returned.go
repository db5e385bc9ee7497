package parity

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

// parityOf is parityValues of the given responses, with the attempt's temp dir and the
// runner's working directory (a stdio child's cwd, which it reports) scrubbed: a golden copy
// holds no machine's path.
func parityOf(tags []string, responses []kernel.Response, dir string) any {
	if !slices.Contains(tags, "contract") || slices.Contains(tags, "X.4") {
		return nil
	}
	v := ReturnedValues(responses)
	if len(v) == 0 {
		return nil
	}
	cwd, _ := os.Getwd()
	return scrubRun(common.NumbersAsText(v), dir, cwd)
}

var loopbackPort = regexp.MustCompile(`(127\.0\.0\.1|localhost|\[::1\]):\d+`)

// scrubRun rewrites every string in v (a decoded JSON value, in place) so that two runs of
// one port, in any clone, give equal values: the attempt's dir becomes <tmp>, the runner's
// working directory <cwd>, a loopback port <port>.
func scrubRun(v any, dir, cwd string) any {
	switch x := v.(type) {
	case string:
		if dir != "" {
			x = strings.ReplaceAll(x, dir, "<tmp>")
		}
		if cwd != "" && cwd != "/" {
			x = strings.ReplaceAll(x, cwd, "<cwd>")
		}
		return loopbackPort.ReplaceAllString(x, "$1:<port>")
	case []any:
		for i := range x {
			x[i] = scrubRun(x[i], dir, cwd)
		}
	case map[string]any:
		for k, e := range x {
			x[k] = scrubRun(e, dir, cwd)
		}
	}
	return v
}

// ReturnedValues is what the library returned to this scenario's contract ops, in call order
// (X.4): describe, execute and adapter results, and the tool calls of each run. Tool lists
// are compared by name, not in order: order has claims of its own (C5.5, C5.6), and a port
// that lists servers as they answer would otherwise flip X.4 with the machine's load.
func ReturnedValues(responses []kernel.Response) []any {
	var out []any
	for _, r := range responses {
		switch r.Op {
		case "toolkit.describe", "tool.execute", "adapters", "sanitize":
			if r.Resp.OK {
				out = append(out, map[string]any{"op": r.Op, "result": toolsByName(r.Op, r.Resp.Result)})
			} else {
				out = append(out, map[string]any{"op": r.Op, "error": r.Resp.Error.Kind})
			}
		case "client.run", "client.ask":
			if r.Resp.OK {
				out = append(out, map[string]any{"op": r.Op, "text": r.Resp.Result["text"], "calls": r.Resp.Result["calls"]})
			}
		}
	}
	return out
}

// toolsByName is a describe or adapters result (a copy) with each tool list sorted by name.
func toolsByName(op string, result map[string]any) any {
	if op != "toolkit.describe" && op != "adapters" {
		return result
	}
	v, _ := common.NumbersAsText(result).(map[string]any)
	byName := func(list any, name func(map[string]any) any) {
		l, _ := list.([]any)
		sort.SliceStable(l, func(i, j int) bool {
			a, _ := l[i].(map[string]any)
			b, _ := l[j].(map[string]any)
			return fmt.Sprint(name(a)) < fmt.Sprint(name(b))
		})
	}
	own := func(t map[string]any) any { return t["name"] }
	byName(v["tools"], own)
	byName(v["anthropic"], own)
	byName(v["openai"], func(t map[string]any) any {
		f, _ := t["function"].(map[string]any)
		return f["name"]
	})
	gemini, _ := v["gemini"].([]any)
	for _, g := range gemini {
		if m, ok := g.(map[string]any); ok {
			byName(m["functionDeclarations"], own)
		}
	}
	return v
}
