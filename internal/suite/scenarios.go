package suite

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	gherkin "github.com/cucumber/gherkin/go/v42"
	messages "github.com/cucumber/messages/go/v34"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// Scenario is one runnable scenario (a plain scenario, or one example row of an outline) as
// the feature files declare it. Its Key is how expectations name it.
type Scenario struct {
	Key  result.Key
	Tags []string // without "@"
	File string   // path relative to the root
	Line int      // of the scenario, or of the example row
	// Level and Sources are what the scenario declares (levels.go): whether its failure
	// fails a port, and the rules it rests on.
	Level   result.Level
	Sources []Source
	// Steps are the step texts as the run sees them (example values filled in).
	Steps []string
	// astKey is godog's pickle AST ids joined: it links a run's outcome back to this scenario.
	astKey string
}

// Features is the parsed feature set.
type Features struct {
	Scenarios []Scenario
	byAST     map[string]int
	byKey     map[string]int // by Key.Stable
	tags      map[string]bool
	// order is the files in walk order and in the order the run hands them to godog (order.go).
	order featureOrder
}

// LoadFeatures parses every features/<area>/*.feature the way godog does in a run (the files
// in the run's order, order.go, with one id sequence, so pickle ids match the run's);
// Scenarios are in walk order: the areas' folders in the order given (the library's), then
// any other folder, each folder's files by name. A syntax error, or a scenario without a stable id, a level or a known
// source (levels.go), is reported as file:line.
func LoadFeatures(root string, areas ...string) (*Features, error) {
	return loadFeatures(root, nil, areas)
}

// loadFeatures is LoadFeatures with the run order taken from an earlier run's times.
func loadFeatures(root string, took featureTimes, areas []string) (*Features, error) {
	sources, err := LoadSources(root)
	if err != nil {
		return nil, err
	}
	order, err := orderFeatures(filepath.Join(root, "features"), took, areas)
	if err != nil {
		return nil, fmt.Errorf("features: %w", err)
	}
	if len(order.walk) == 0 {
		return nil, fmt.Errorf("features: no .feature file in %s", filepath.Join(root, "features"))
	}
	fs := &Features{byAST: map[string]int{}, byKey: map[string]int{}, tags: map[string]bool{}, order: order}
	ids := (&messages.Incrementing{}).NewId
	var errs []string
	perFile := map[string][]Scenario{}
	for _, path := range order.run {
		rel, _ := filepath.Rel(root, path)
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("features: %w", err)
		}
		doc, err := gherkin.ParseGherkinDocument(f, ids)
		f.Close()
		if err != nil {
			errs = append(errs, gherkinError(rel, err))
			continue
		}
		rows := exampleRows(doc)
		lines := scenarioLines(doc)
		for _, p := range gherkin.Pickles(*doc, path, ids) {
			s := Scenario{Key: result.Key{Feature: filepath.Base(path), Name: p.Name}, File: rel,
				astKey: strings.Join(p.AstNodeIds, "/")}
			if len(p.AstNodeIds) > 0 {
				s.Line = lines[p.AstNodeIds[0]]
			}
			if len(p.AstNodeIds) > 1 {
				if r, ok := rows[p.AstNodeIds[1]]; ok {
					s.Key.Row, s.Line = r.cells, r.line
				}
			}
			for _, st := range p.Steps {
				s.Steps = append(s.Steps, st.Text)
			}
			for _, t := range p.Tags {
				name := strings.TrimPrefix(t.Name, "@")
				s.Tags = append(s.Tags, name)
				fs.tags[name] = true
			}
			if err := declare(&s, sources); err != nil {
				errs = append(errs, fmt.Sprintf("%s:%d: scenario %q %v", s.File, s.Line, s.Key.Name, err))
				continue
			}
			if err := declareTiming(s.Tags, p.Steps); err != nil {
				errs = append(errs, fmt.Sprintf("%s:%d: scenario %q: %v", s.File, s.Line, s.Key.Name, err))
				continue
			}
			perFile[path] = append(perFile[path], s)
		}
	}
	for _, path := range order.walk {
		for _, s := range perFile[path] {
			if i, dup := fs.byKey[s.Key.Stable()]; dup {
				errs = append(errs, fmt.Sprintf("%s:%d: scenario %s repeats %s:%d; expectations could not tell them apart",
					s.File, s.Line, s.Key.Stable(), fs.Scenarios[i].File, fs.Scenarios[i].Line))
				continue
			}
			fs.byAST[s.astKey] = len(fs.Scenarios)
			fs.byKey[s.Key.Stable()] = len(fs.Scenarios)
			fs.Scenarios = append(fs.Scenarios, s)
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return fs, nil
}

var gherkinPos = regexp.MustCompile(`\((\d+):(\d+)\): `)

// gherkinError rewrites the parser's "(3:5): expected …" lines as "file:3:5: expected …".
func gherkinError(file string, err error) string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(err.Error()), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "Parser errors") {
			continue
		}
		if m := gherkinPos.FindStringSubmatchIndex(l); m != nil {
			l = fmt.Sprintf("%s:%s:%s: Gherkin syntax error: %s", file, l[m[2]:m[3]], l[m[4]:m[5]], l[m[1]:])
		} else {
			l = file + ": Gherkin syntax error: " + l
		}
		out = append(out, l)
	}
	if len(out) == 0 {
		return file + ": Gherkin syntax error: " + err.Error()
	}
	return strings.Join(out, "\n")
}

type row struct {
	cells string
	line  int
}

// exampleRows maps each example row's AST id to its cells and line.
func exampleRows(doc *messages.GherkinDocument) map[string]row {
	out := map[string]row{}
	for _, sc := range allScenarios(doc) {
		for _, ex := range sc.Examples {
			for _, r := range ex.TableBody {
				var cells []string
				for _, c := range r.Cells {
					cells = append(cells, c.Value)
				}
				out[r.Id] = row{strings.Join(cells, " | "), int(r.Location.Line)}
			}
		}
	}
	return out
}

func scenarioLines(doc *messages.GherkinDocument) map[string]int {
	out := map[string]int{}
	for _, sc := range allScenarios(doc) {
		out[sc.Id] = int(sc.Location.Line)
	}
	return out
}

func allScenarios(doc *messages.GherkinDocument) []*messages.Scenario {
	if doc.Feature == nil {
		return nil
	}
	var out []*messages.Scenario
	for _, c := range doc.Feature.Children {
		if c.Scenario != nil {
			out = append(out, c.Scenario)
		}
		if c.Rule != nil {
			for _, rc := range c.Rule.Children {
				if rc.Scenario != nil {
					out = append(out, rc.Scenario)
				}
			}
		}
	}
	return out
}

// Lookup finds the declared scenario a run's outcome came from: by its AST ids when they
// match the same name, else by feature file and name when that is unique.
func (f *Features) Lookup(uri, name string, astIDs []string) (Scenario, bool) {
	if i, ok := f.byAST[strings.Join(astIDs, "/")]; ok && f.Scenarios[i].Key.Name == name &&
		f.Scenarios[i].Key.Feature == filepath.Base(uri) {
		return f.Scenarios[i], true
	}
	var found []Scenario
	for _, s := range f.Scenarios {
		if s.Key.Feature == filepath.Base(uri) && s.Key.Name == name {
			found = append(found, s)
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	return Scenario{}, false
}

// ByKey finds a declared scenario by its stable key (ID and row).
func (f *Features) ByKey(k result.Key) (Scenario, bool) {
	i, ok := f.byKey[k.Stable()]
	if !ok {
		return Scenario{}, false
	}
	return f.Scenarios[i], true
}

var tagTerm = regexp.MustCompile(`^~?@[^\s,~@&]+$`)

// Select checks a godog tag expression ("@a,@b" = or, "&&" = and, "~@a" = not) and returns
// the scenarios it selects. A malformed term, a tag no scenario has, or an expression that
// selects nothing is an error naming --tags.
func (f *Features) Select(expr string) ([]Scenario, error) {
	expr = strings.TrimSpace(expr)
	if expr == "" {
		return append([]Scenario(nil), f.Scenarios...), nil
	}
	var groups [][]string
	for _, g := range strings.Split(expr, ",") {
		var terms []string
		for _, t := range strings.Split(g, "&&") {
			t = strings.TrimSpace(t)
			if !tagTerm.MatchString(t) {
				return nil, fmt.Errorf("--tags %q: %q is not a tag term (write @TAG or ~@TAG; ',' is or, '&&' is and)", expr, t)
			}
			if name := strings.TrimPrefix(strings.TrimPrefix(t, "~"), "@"); !f.tags[name] {
				return nil, fmt.Errorf("--tags %q: no scenario is tagged @%s (known tags: %s)", expr, name, f.knownTags())
			}
			terms = append(terms, t)
		}
		groups = append(groups, terms)
	}
	var out []Scenario
	for _, s := range f.Scenarios {
		if matchTags(groups, s.Tags) {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--tags %q selects no scenario", expr)
	}
	return out, nil
}

func matchTags(groups [][]string, tags []string) bool {
	for _, g := range groups {
		all := true
		for _, t := range g {
			neg := strings.HasPrefix(t, "~")
			has := slices.Contains(tags, strings.TrimPrefix(strings.TrimPrefix(t, "~"), "@"))
			if has == neg {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

func (f *Features) knownTags() string {
	var out []string
	for t := range f.tags {
		out = append(out, "@"+t)
	}
	sort.Strings(out)
	if len(out) > 12 {
		out = append(out[:12], "…")
	}
	return strings.Join(out, " ")
}
