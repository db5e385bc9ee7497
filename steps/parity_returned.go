package steps

import (
	"regexp"
	"slices"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

// parityValues is what a contract scenario's ops returned, for X.4 over every C scenario
// (internal/parity): the same values X.4's own scenarios compare, with what only this run
// can know (the fakes' ports, the scenario's temp dir) written as placeholders. Nil for
// other scenarios, and for X.4's own, which judge their values themselves.
func (w *World) parityValues(tags []string) any {
	return parityOf(tags, w.a.Responses(), w.a.Dir())
}

// parityOf is parityValues of the given responses, with the attempt's temp dir scrubbed.
func parityOf(tags []string, responses []kernel.Response, dir string) any {
	if !slices.Contains(tags, "contract") || slices.Contains(tags, "X.4") {
		return nil
	}
	v := returnedValues(responses)
	if len(v) == 0 {
		return nil
	}
	return scrubRun(common.NumbersAsText(v), dir)
}

var loopbackPort = regexp.MustCompile(`(127\.0\.0\.1|localhost|\[::1\]):\d+`)

// scrubRun rewrites every string in v (a decoded JSON value, in place) so that two runs of
// one port give equal values.
func scrubRun(v any, dir string) any {
	switch x := v.(type) {
	case string:
		if dir != "" {
			x = strings.ReplaceAll(x, dir, "<tmp>")
		}
		return loopbackPort.ReplaceAllString(x, "$1:<port>")
	case []any:
		for i := range x {
			x[i] = scrubRun(x[i], dir)
		}
	case map[string]any:
		for k, e := range x {
			x[k] = scrubRun(e, dir)
		}
	}
	return v
}
