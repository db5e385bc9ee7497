package suite

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// featureOrder is the suite's feature files in two orders: walk, the order godog reads a
// folder in (and so the order a one-at-a-time run reports), and run, the order to hand
// them to godog in: the files whose scenarios took longest in an earlier run first, then
// those that declare the most waiting, so that with --jobs the long ones overlap with the
// quick scenarios instead of trailing them.
type featureOrder struct {
	walk, run []string
	rank      map[string]int // uri -> place in walk
}

// waitDecl is a step's declared wait: "a cancel after 100 ms", "a timeout of 400 ms" …
// A "returns within" bound is a limit, not a wait, and does not count.
var waitDecl = regexp.MustCompile(`(?:after|of) (\d+) ms`)

func orderFeatures(dir string, took featureTimes, areas []string) (featureOrder, error) {
	fo := featureOrder{rank: map[string]int{}}
	// WalkDir does not enter a symlinked root (a test harness may link features/ in).
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	weight := map[string]int{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".feature") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range waitDecl.FindAllStringSubmatch(string(b), -1) {
			n, _ := strconv.Atoi(m[1])
			weight[p] += n
		}
		fo.rank[p] = len(fo.walk)
		fo.walk = append(fo.walk, p)
		return nil
	})
	if err != nil {
		return fo, err
	}
	// The areas' folders in the library's order (ADR 0001's areas come first), then any other.
	rank := func(p string) int {
		rel, _ := filepath.Rel(dir, p)
		top, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
		if i := slices.Index(areas, top); i >= 0 {
			return i
		}
		return len(areas)
	}
	sort.SliceStable(fo.walk, func(i, j int) bool { return rank(fo.walk[i]) < rank(fo.walk[j]) })
	for i, p := range fo.walk {
		fo.rank[p] = i
	}
	fo.run = append([]string(nil), fo.walk...)
	// The longest scenario an earlier run saw first (featuretimes.go), then the declared waits.
	sort.SliceStable(fo.run, func(i, j int) bool {
		a, b := took[filepath.Base(fo.run[i])], took[filepath.Base(fo.run[j])]
		if a != b {
			return a > b
		}
		return weight[fo.run[i]] > weight[fo.run[j]]
	})
	return fo, err
}

// sortOutcomes puts outcomes back in the order a one-at-a-time run reports them: feature
// files in walk order, then scenarios and example rows as written (godog's pickle ids grow
// through a file).
func (fo featureOrder) sortOutcomes(out []result.Outcome) {
	sort.SliceStable(out, func(i, j int) bool {
		ri, rj := fo.rank[out[i].URI], fo.rank[out[j].URI]
		if ri != rj {
			return ri < rj
		}
		return out[i].Order < out[j].Order
	})
}
