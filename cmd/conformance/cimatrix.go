package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/ports"
)

// cmdCIMatrix prints the conformance workflow's job matrix from the port manifests, so the
// workflow names no port: .github/workflows/conformance.yml reads it with fromJSON.
func cmdCIMatrix(args []string) int {
	fs := flag.NewFlagSet("ci-matrix", flag.ContinueOnError)
	var c common
	c.registerRoot(fs)
	tree := fs.String("tree", "toolnexus", "the toolnexus checkout's path in the workflow, for {tree} in a setup step's inputs")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageErr(fmt.Errorf("ci-matrix takes no arguments, got %q", fs.Arg(0)))
	}
	if _, _, err := c.resolve(); err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	m, err := ciMatrix(c.set, *tree)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	// One line: the workflow puts it in $GITHUB_OUTPUT as matrix=<json>.
	if err := json.NewEncoder(os.Stdout).Encode(m); err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	return 0
}

// ciMatrix is {"include": [...]}: one entry per implementation on the default run, in column
// order, with "impl", "port" and, for each of its port's setup steps, the action's name
// ("setup-node" for actions/setup-node@v4) holding that step's inputs. The workflow has one
// step per setup action, run when its key is in the entry (TestWorkflowSetsUpEveryToolchain).
func ciMatrix(set *ports.Set, tree string) (map[string][]map[string]any, error) {
	include := []map[string]any{}
	for _, m := range set.Ports {
		for _, im := range m.Implementations {
			if !im.OnDefault() {
				continue
			}
			e := map[string]any{"impl": im.Name, "port": m.Name}
			for _, s := range m.Toolchain.CI {
				key := setupKey(s.Uses)
				if _, dup := e[key]; dup {
					return nil, fmt.Errorf("%s: toolchain.ci: %s is named twice or clashes with a matrix key", m.File, key)
				}
				with := map[string]string{}
				for k, v := range s.With {
					with[k] = strings.ReplaceAll(v, "{tree}", tree)
				}
				e[key] = with
			}
			include = append(include, e)
		}
	}
	return map[string][]map[string]any{"include": include}, nil
}

// setupKey is an action's matrix key: its repository's name, "setup-node" for
// actions/setup-node@v4.
func setupKey(uses string) string {
	name, _, _ := strings.Cut(uses, "@")
	return name[strings.LastIndex(name, "/")+1:]
}
