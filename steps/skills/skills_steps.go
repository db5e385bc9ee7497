package skills

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cucumber/godog"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

func registerSkillsSteps(sc *kernel.Steps) {
	sc.Step(`^the skills tree "([^"]+)"$`, (*World).oneTree)
	sc.Step(`^the skills trees "([^"]+)" and "([^"]+)"$`, (*World).twoTrees)
	sc.Step(`^the skill sample limit is (-?\d+)$`, (*World).sampleLimit)
	sc.Step(`^the skills filter is (\{.*\})$`, (*World).filter)
	sc.Step(`^the execute output, with each skills root written <SKILLS>, is exactly:$`, (*World).outputIs)
	sc.Step(`^the execute metadata, with each skills root written <SKILLS>, is (\{.*\})$`, (*World).metadataIs)
	sc.Step(`^the execute output, with each skills root written <SKILLS>, contains "([^"]*)"$`, (*World).outputContains)
	sc.Step(`^the execute output lists (\d+) files, each inside "([^"]+)", none of them a SKILL\.md, none twice$`, (*World).listsFiles)
	sc.Step(`^the skills prompt is exactly:$`, (*World).promptIs)
	sc.Step(`^the skills prompt is empty$`, (*World).promptEmpty)
	sc.Step(`^the skills of the tree are listed$`, (*World).listTrees)
	sc.Step(`^the listed skills are, with each skills root written <SKILLS>:$`, (*World).listedSkills)
	sc.Step(`^the listed skips are, with each skills root written <SKILLS>:$`, (*World).listedSkips)
	sc.Step(`^the listed skills include, with each skills root written <SKILLS>:$`, (*World).listedSkillsInclude)
	sc.Step(`^the listed skips include, with each skills root written <SKILLS>:$`, (*World).listedSkipsInclude)
	sc.Step(`^no listed skill is named (.+)$`, (*World).noListedSkill)
}

// addTree writes a tree under the attempt's directory and makes its root the toolkit's next
// skills root (after any named before it).
func (w *World) addTree(name string) error {
	t, err := readTree(treePath(w.Env().Root, name))
	if err != nil {
		return fmt.Errorf("harness: %w", err)
	}
	s := w.sk()
	if s.parent == "" {
		s.parent = filepath.Join(w.A.Dir(), "skills")
	}
	// Real paths, so a port that resolves symlinks in the root and one that does not agree.
	parent, err := filepath.Abs(s.parent)
	if err != nil {
		return fmt.Errorf("harness: %w", err)
	}
	root := filepath.Join(parent, name, "skills")
	if err := t.write(root); err != nil {
		return fmt.Errorf("harness: writing skills tree %s: %w", name, err)
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	s.roots = append(s.roots, root)
	dirs := make([]any, len(s.roots))
	for i, r := range s.roots {
		dirs[i] = r
	}
	return kernel.SetOption(w.A, "toolkit.create", "skillsDir", dirs)
}

func (w *World) oneTree(name string) error { return w.addTree(name) }

func (w *World) twoTrees(a, b string) error {
	if err := w.addTree(a); err != nil {
		return err
	}
	return w.addTree(b)
}

func (w *World) sampleLimit(n int) error {
	return kernel.SetOption(w.A, "toolkit.create", "skillSampleLimit", n)
}

func (w *World) filter(raw string) error {
	var m map[string]bool
	if err := common.StepJSON(raw, &m); err != nil {
		return fmt.Errorf("harness: skills filter %s: want a name-to-bool object: %w", raw, err)
	}
	return kernel.SetOption(w.A, "toolkit.create", "skillsFilter", m)
}

// normalized writes each root the scenario made as <SKILLS> (the first) or <SKILLS:name>.
func (w *World) normalized(s string) string {
	roots := w.sk().roots
	for i := len(roots) - 1; i >= 0; i-- { // longest first cannot matter: roots are siblings
		mark := "<SKILLS>"
		if i > 0 {
			mark = "<SKILLS:" + filepath.Base(filepath.Dir(roots[i])) + ">"
		}
		s = strings.ReplaceAll(s, roots[i], mark)
	}
	return s
}

func (w *World) outputIs(doc *godog.DocString) error {
	r, err := w.Executed()
	if err != nil {
		return err
	}
	out, _ := r["output"].(string)
	if got := w.normalized(out); got != doc.Content {
		return fmt.Errorf("the skill tool's output differs byte for byte (isError %v):\n got %s\nwant %s", r["isError"], common.CompactJSON(got), common.CompactJSON(doc.Content))
	}
	return nil
}

func (w *World) outputContains(want string) error {
	r, err := w.Executed()
	if err != nil {
		return err
	}
	out, _ := r["output"].(string)
	if !strings.Contains(w.normalized(out), want) {
		return fmt.Errorf("the skill tool's output does not contain %s: %s", common.CompactJSON(want), common.CompactJSON(w.normalized(out)))
	}
	return nil
}

func (w *World) metadataIs(raw string) error {
	r, err := w.Executed()
	if err != nil {
		return err
	}
	b, _ := json.Marshal(r["metadata"])
	var got any
	_ = json.Unmarshal([]byte(w.normalized(string(b))), &got)
	return common.SameJSON("the execute metadata", raw, got)
}

// listsFiles checks the <file> lines of a skill block: their count, and that each is an
// absolute path inside the skill's directory, no SKILL.md, no repeat.
func (w *World) listsFiles(n int, dir string) error {
	r, err := w.Executed()
	if err != nil {
		return err
	}
	out, _ := r["output"].(string)
	var files []string
	for _, l := range strings.Split(w.normalized(out), "\n") {
		if f, ok := strings.CutPrefix(l, "<file>"); ok {
			files = append(files, strings.TrimSuffix(f, "</file>"))
		}
	}
	if len(files) != n {
		return fmt.Errorf("the skill tool lists %d files; want %d: %s", len(files), n, common.CompactJSON(files))
	}
	seen := map[string]bool{}
	for _, f := range files {
		switch {
		case !strings.HasPrefix(f, dir+"/"):
			return fmt.Errorf("the listed file %q is not inside %s", f, dir)
		case filepath.Base(f) == "SKILL.md":
			return fmt.Errorf("the listed files include a SKILL.md: %q", f)
		case seen[f]:
			return fmt.Errorf("the listed file %q appears twice", f)
		}
		seen[f] = true
	}
	return nil
}

func (w *World) askPrompt() (string, error) {
	if p := w.sk().prompt; p != nil {
		return *p, nil
	}
	if err := w.NeedToolkit(); err != nil {
		return "", err
	}
	r, err := w.Must("toolkit.skillsPrompt", map[string]any{"toolkit": w.TK().Current})
	if err != nil {
		return "", err
	}
	p, _ := r["prompt"].(string)
	w.sk().prompt = &p
	return p, nil
}

func (w *World) promptIs(doc *godog.DocString) error {
	p, err := w.askPrompt()
	if err != nil {
		return err
	}
	want, err := common.CodePoints(doc.Content) // ⟨U+2028⟩: a line separator a feature does not carry raw
	if err != nil {
		return err
	}
	if p != want {
		return fmt.Errorf("skillsPrompt() differs byte for byte:\n got %s\nwant %s", common.CompactJSON(p), common.CompactJSON(want))
	}
	return nil
}

func (w *World) promptEmpty() error {
	p, err := w.askPrompt()
	if err != nil {
		return err
	}
	if p != "" {
		return fmt.Errorf("skillsPrompt() is %s; want \"\"", common.CompactJSON(p))
	}
	return nil
}

func (w *World) listTrees() error {
	roots := w.sk().roots
	if len(roots) == 0 {
		return fmt.Errorf("harness: no skills tree in this scenario")
	}
	dirs := make([]any, len(roots))
	for i, r := range roots {
		dirs[i] = r
	}
	r, err := w.Must("skills.list", map[string]any{"dirs": dirs})
	w.sk().listed = r
	return err
}

// listedRows is one field set of the inventory as sorted rows (the SPEC pins no order).
func (w *World) listedRows(key string, cols []string) ([]string, error) {
	if w.sk().listed == nil {
		return nil, fmt.Errorf("harness: the skills were not listed")
	}
	items, _ := w.sk().listed[key].([]any)
	rows := []string{}
	for _, it := range items {
		m, _ := it.(map[string]any)
		var cells []string
		for _, c := range cols {
			v, _ := m[c].(string)
			cells = append(cells, w.normalized(v))
		}
		rows = append(rows, strings.Join(cells, " | "))
	}
	sort.Strings(rows)
	return rows, nil
}

func tableRows(tbl *godog.Table) ([]string, []string) {
	var cols []string
	for _, c := range tbl.Rows[0].Cells {
		cols = append(cols, c.Value)
	}
	rows := []string{}
	for _, r := range tbl.Rows[1:] {
		var cells []string
		for _, c := range r.Cells {
			cells = append(cells, c.Value)
		}
		rows = append(rows, strings.Join(cells, " | "))
	}
	sort.Strings(rows)
	return cols, rows
}

func (w *World) listedSkills(tbl *godog.Table) error { return w.listedTable("skills", tbl) }
func (w *World) listedSkips(tbl *godog.Table) error  { return w.listedTable("skipped", tbl) }

func (w *World) listedSkillsInclude(tbl *godog.Table) error { return w.listedInclude("skills", tbl) }
func (w *World) listedSkipsInclude(tbl *godog.Table) error  { return w.listedInclude("skipped", tbl) }

// listedInclude checks each row of the table is in the inventory (in the table's columns).
func (w *World) listedInclude(key string, tbl *godog.Table) error {
	cols, want := tableRows(tbl)
	got, err := w.listedRows(key, cols)
	if err != nil {
		return err
	}
	have := map[string]bool{}
	for _, r := range got {
		have[r] = true
	}
	var missing []string
	for _, r := range want {
		if !have[r] {
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("the inventory's %s lack %s (%s); it holds %s", key, common.CompactJSON(missing), strings.Join(cols, " | "), common.CompactJSON(got))
	}
	return nil
}

// noListedSkill checks none of the quoted names ("a", "b" or "c") is a listed skill.
func (w *World) noListedSkill(names string) error {
	got, err := w.listedRows("skills", []string{"name"})
	if err != nil {
		return err
	}
	for _, n := range quoted(names) {
		for _, g := range got {
			if g == n {
				return fmt.Errorf("the inventory lists the skill %q; want it not discovered", n)
			}
		}
	}
	return nil
}

// quoted is every "…" in s.
func quoted(s string) []string {
	var out []string
	for _, part := range strings.Split(s, `"`)[1:] {
		out = append(out, part)
	}
	var names []string
	for i := 0; i < len(out); i += 2 {
		names = append(names, out[i])
	}
	return names
}

func (w *World) listedTable(key string, tbl *godog.Table) error {
	cols, want := tableRows(tbl)
	got, err := w.listedRows(key, cols)
	if err != nil {
		return err
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		return fmt.Errorf("the inventory's %s (%s), sorted, differ (-want +got):\n%w", key, strings.Join(cols, " | "), kernel.DiffOf(want, got))
	}
	return nil
}
