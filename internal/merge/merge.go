// Package merge joins results.json documents from separate runs (one CI job per port) into
// the results of one run, so every report can be written as if the ports had run together.
package merge

import (
	"fmt"
	"slices"
	"sort"

	"github.com/muthuishere/toolnexus-conformance/internal/ports"
	"github.com/muthuishere/toolnexus-conformance/internal/report"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// Input is one results.json and where it came from (for error messages).
type Input struct {
	Path string
	Doc  report.Results
}

// Merged is what the reports are rendered from.
type Merged struct {
	Catalogue [][2]string
	Results   []*result.PortResult
	Versions  result.Versions
}

// Merge checks that every input was judged against the same catalogue and suite, then joins
// their ports in the order a default run shows them (the manifests' column order, set.Rank;
// releases of an implementation after it, in input order), whatever order the inputs come in.
// The same implementation in two inputs is refused: one of the two results would be silently
// dropped.
func Merge(in []Input, set *ports.Set) (*Merged, error) {
	if len(in) == 0 {
		return nil, fmt.Errorf("merge: no results.json given")
	}
	first := in[0]
	m := &Merged{Catalogue: first.Doc.CatalogueOf(),
		Versions: result.Versions{Catalogue: first.Doc.CatalogueVersion, Suite: first.Doc.SuiteVersion,
			Harness: first.Doc.HarnessVersion}}
	seen := map[string]string{}
	for _, x := range in {
		switch {
		case x.Doc.CatalogueVersion == "" || x.Doc.SuiteVersion == "":
			return nil, fmt.Errorf("merge: %s has no catalogue or suite version (written by an older harness); rerun it", x.Path)
		case x.Doc.CatalogueVersion != m.Versions.Catalogue:
			return nil, fmt.Errorf("merge: %s was judged against catalogue %s, %s against catalogue %s; rerun both with the same harness",
				x.Path, x.Doc.CatalogueVersion, first.Path, m.Versions.Catalogue)
		case x.Doc.SuiteVersion != m.Versions.Suite:
			return nil, fmt.Errorf("merge: %s was judged by suite %s, %s by suite %s (features, fixtures or schema differ); rerun both with the same harness",
				x.Path, x.Doc.SuiteVersion, first.Path, m.Versions.Suite)
		case !slices.Equal(x.Doc.CatalogueOf(), m.Catalogue):
			return nil, fmt.Errorf("merge: %s and %s list different catalogues", x.Path, first.Path)
		}
		for _, p := range x.Doc.Ports {
			if prev, dup := seen[p.Port]; dup {
				return nil, fmt.Errorf("merge: %s is in both %s and %s; give each implementation once", p.Port, prev, x.Path)
			}
			seen[p.Port] = x.Path
			m.Results = append(m.Results, p.PortResult())
		}
	}
	sort.SliceStable(m.Results, func(i, j int) bool { return set.Rank(m.Results[i].Port) < set.Rank(m.Results[j].Port) })
	return m, nil
}
