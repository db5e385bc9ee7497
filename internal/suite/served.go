package suite

import (
	"fmt"
	"slices"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/schema"
)

// unexplained holds an adapter's hello to the composed protocol: every op and slot some area
// declares is served, or the port's facts.json names it under "unserved" with why. An area
// whose file an adapter forgot to wire is then the harness's error on the first run, not a
// column of unsupported cells nobody reads (SPEC.md §3 "hello"). It also names the entries of
// unserved that hello does serve, which are stale.
func unexplained(hello map[string]any, proto *schema.Protocol, unserved map[string]string, factsFile string) string {
	var missing, stale []string
	check := func(declared, served []string) {
		for _, name := range declared {
			_, said := unserved[name]
			switch in := slices.Contains(served, name); {
			case !in && !said:
				missing = append(missing, name)
			case in && said:
				stale = append(stale, name)
			}
		}
	}
	check(proto.Ops(), adapter.HelloNames(hello, "ops"))
	check(proto.Slots(), adapter.HelloNames(hello, "slots"))
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, fmt.Sprintf("the adapter's hello does not serve %s, and %s does not say why under \"unserved\": wire the area's file, or name them there with what the library lacks",
			strings.Join(missing, ", "), factsFile))
	}
	if len(stale) > 0 {
		parts = append(parts, fmt.Sprintf("%s names %s under \"unserved\", which the adapter's hello serves: take them out", factsFile, strings.Join(stale, ", ")))
	}
	return strings.Join(parts, "; ")
}
