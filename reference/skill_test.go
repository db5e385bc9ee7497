package toolnexus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, text := range files {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFrontmatterScalarsFollowTheYAML12CoreSchema(t *testing.T) {
	for front, want := range map[string][2]string{
		"name: 123":                                         {"123", ""},
		"name: yes\ndescription: 1.0":                       {"yes", "1"},
		"name: a\ndescription: 2024-01-01":                  {"a", "2024-01-01"},
		"name: a\ndescription: 007":                         {"a", "7"},
		"name: a\ndescription: >\n  line one\n  line two\n": {"a", "line one line two"},
		"name: a\ndescription: |\n  one\n  two\n":           {"a", "one\ntwo"},
		"name: \" q \"":                                     {"q", ""},
	} {
		name, desc, _, skip := parseSkillFile([]byte("---\n" + front + "\n---\nbody"))
		if skip != "" || name != want[0] || desc != want[1] {
			t.Errorf("%q: name %q description %q skip %q; want %q %q", front, name, desc, skip, want[0], want[1])
		}
	}
	for text, want := range map[string]SkillSkipReason{
		"---\nname: \"\"\n---\nb":      SkipMissingName,
		"---\ndescription: d\n---\nb":  SkipMissingName,
		"\ufeff---\nname: a\n---\nb":   SkipMissingName,
		"---\nname: [unclosed\n---\nb": SkipMalformed,
		"---\nname: a\xff\n---\nb":     SkipUnreadable,
		"no frontmatter":               SkipMissingName,
	} {
		if _, _, _, skip := parseSkillFile([]byte(text)); skip != want {
			t.Errorf("%q: skip %q; want %q", text, skip, want)
		}
	}
}

func TestSkillToolBlockAndPrompt(t *testing.T) {
	root := filepath.Join(t.TempDir(), "my skill (v2) é")
	writeTree(t, root, map[string]string{
		"hello/SKILL.md":          "---\nname: hello\ndescription: says hi\n---\n\n# Hi\n\n",
		"hello/z.txt":             "z",
		"hello/a.txt":             "a",
		"hello/sub/m.txt":         "m",
		"node_modules/x/SKILL.md": "---\nname: vendored\n---\n",
		"deep/er/still/SKILL.md":  "---\nname: Zeta\ndescription: last word\n---\nz",
	})
	if err := os.Symlink(root, filepath.Join(root, "deep", "loop")); err != nil {
		t.Fatal(err)
	}
	inv := ListSkills(LoadSkillsOptions{Dirs: []string{root}})
	var names []string
	for _, s := range inv.Skills {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "Zeta,hello" {
		t.Errorf("discovered %v; want Zeta (deep/…) then hello, node_modules skipped, the loop ended", names)
	}
	src := &skillSource{skills: inv.Skills}
	got := src.load("hello").Output
	want := "<skill_content name=\"hello\">\n# Skill: hello\n\n# Hi\n\nBase directory for this skill: " + fileURL(filepath.Join(root, "hello")) +
		"\nRelative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.\nNote: file list is sampled.\n\n<skill_files>\n" +
		"<file>" + filepath.Join(root, "hello", "a.txt") + "</file>\n<file>" + filepath.Join(root, "hello", "z.txt") + "</file>\n<file>" + filepath.Join(root, "hello", "sub", "m.txt") + "</file>\n</skill_files>\n</skill_content>"
	if got != want {
		t.Errorf("block:\n%s\nwant:\n%s", got, want)
	}
	if !strings.Contains(fileURL(root), "my%20skill%20(v2)%20%C3%A9") {
		t.Errorf("fileURL %s", fileURL(root))
	}
	if r := src.load("nope"); !r.IsError || r.Output != `Skill "nope" not found. Available skills: Zeta, hello` {
		t.Errorf("not found: %+v", r)
	}
	tk := &Toolkit{skills: src}
	if p := tk.SkillsPrompt(); !strings.HasSuffix(p, "## Available Skills\n- **Zeta**: last word\n- **hello**: says hi") {
		t.Errorf("prompt %q", p)
	}
	src.limit = -1
	if out := src.load("hello").Output; !strings.HasSuffix(out, "relative to this base directory.\n</skill_content>") {
		t.Errorf("limit -1: %q", out)
	}
}
