package suite

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// TestRecommendedSourcesNamePins is catalogue X.6: a recommended rule is our reading, so its
// citation must say where SPEC.md argues it (`SPEC.md §N "<question>"`) and that section must
// state the question. A pin nobody wrote down would be a silent rule.
func TestRecommendedSourcesNamePins(t *testing.T) {
	root, _ := filepath.Abs("../..")
	sources, err := LoadSources(root)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := os.ReadFile(filepath.Join(root, "SPEC.md"))
	if err != nil {
		t.Fatal(err)
	}
	sections := specSections(string(spec))
	cite := regexp.MustCompile(`^SPEC\.md §(\d+) "([^"]+)"`)
	keys := make([]string, 0, len(sources))
	for k := range sources {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	n := 0
	for _, k := range keys {
		s := sources[k]
		if s.Level != result.Recommended {
			continue
		}
		n++
		m := cite.FindStringSubmatch(s.Text)
		if m == nil {
			t.Errorf("%s: a recommended source must cite `SPEC.md §N \"<question>\"`; it says %q", k, s.Text)
			continue
		}
		body, ok := sections[m[1]]
		if !ok {
			t.Errorf("%s: SPEC.md has no §%s", k, m[1])
			continue
		}
		if !strings.Contains(strings.ToLower(flatten(body)), strings.ToLower(m[2])) {
			t.Errorf("%s: SPEC.md §%s does not state %q", k, m[1], m[2])
		}
	}
	if n == 0 {
		t.Fatal("no recommended source: the check saw nothing")
	}
}

// specSections maps "7" to the text of "## 7. …" up to the next "## ".
func specSections(spec string) map[string]string {
	out := map[string]string{}
	head := regexp.MustCompile(`(?m)^## (\d+)\. `)
	idx := head.FindAllStringSubmatchIndex(spec, -1)
	for i, m := range idx {
		end := len(spec)
		if i+1 < len(idx) {
			end = idx[i+1][0]
		}
		out[spec[m[2]:m[3]]] = spec[m[0]:end]
	}
	return out
}

// flatten joins wrapped lines and drops markdown's backquotes and bold and any quote marks, so
// a question may span a line and quote a key.
func flatten(s string) string {
	s = strings.NewReplacer("`", "", "**", "", "\"", "").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}
