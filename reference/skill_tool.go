package toolnexus

import (
	"path/filepath"
	"sort"
	"strings"
)

// SourceSkill marks the skill tool (§1 "source: mcp | skill | native | http").
const SourceSkill ToolSource = "skill"

// SkillToolDescription is skill.txt (§3), verbatim.
const SkillToolDescription = "Load a specialized skill when the task at hand matches one of the skills listed in the system prompt.\n\n" +
	"Use this tool to inject the skill's instructions and resources into current conversation. The output may contain detailed workflow guidance as well as references to scripts, files, etc in the same directory as the skill.\n\n" +
	"The skill name must match one of the skills listed in your system prompt."

// defaultSkillSample is how many sibling files the skill tool lists (§3 "up to 10").
const defaultSkillSample = 10

// skillSource is the loaded skills a toolkit exposes through its skill tool and prompt.
type skillSource struct {
	skills []SkillInfo
	limit  int
}

// loadSkills discovers the roots, warns for dropped duplicates, and applies the filter:
// after discovery, before the tool is built, so the prompt and the tool agree (§3 S2).
func loadSkills(dirs []string, filter map[string]bool, limit int) *skillSource {
	inv, warnings := discoverSkills(dirs)
	for _, w := range warnings {
		Warnf("%s", w)
	}
	return &skillSource{skills: filterSkills(inv.Skills, filter), limit: limit}
}

// filterSkills is the MCP tools filter's rule on skill names: empty keeps all; one true
// makes an allowlist; only false entries drop those names; an unknown name is warned once.
func filterSkills(skills []SkillInfo, filter map[string]bool) []SkillInfo {
	if len(filter) == 0 {
		return skills
	}
	allowlist := false
	for _, on := range filter {
		allowlist = allowlist || on
	}
	known := map[string]bool{}
	for _, s := range skills {
		known[s.Name] = true
	}
	for _, k := range sortedKeys(filter) {
		if !known[k] {
			Warnf("[toolnexus] skills filter name %q matched no skill", k)
		}
	}
	var kept []SkillInfo
	for _, s := range skills {
		on, named := filter[s.Name]
		if (allowlist && on) || (!allowlist && !named) {
			kept = append(kept, s)
		}
	}
	return kept
}

// tool is the single `skill` tool (§3).
func (src *skillSource) tool() Tool {
	return Tool{
		Name:        "skill",
		Description: SkillToolDescription,
		InputSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"name": map[string]any{"type": "string", "description": "The name of the skill to load"},
			},
			"required":             []any{"name"},
			"additionalProperties": false, // C6.11: as the upstream reference (js) has it
		},
		Source: SourceSkill,
		Execute: func(args map[string]any, _ *ToolContext) (ToolResult, error) {
			name, _ := args["name"].(string)
			return src.load(name), nil
		},
	}
}

// load is the skill tool's answer for one name: the progressive-disclosure block (§0.6), or
// a not-found error naming every skill (C6.18's pin).
func (src *skillSource) load(name string) ToolResult {
	for _, s := range src.skills {
		if s.Name == name {
			dir := filepath.Dir(s.Location)
			return ToolResult{Output: skillBlock(s, dir, src.limit), Metadata: map[string]any{"name": s.Name, "dir": dir}}
		}
	}
	names := make([]string, 0, len(src.skills))
	for _, s := range src.skills {
		names = append(names, s.Name)
	}
	sort.Strings(names)
	available := "none"
	if len(names) > 0 {
		available = strings.Join(names, ", ")
	}
	return ToolResult{Output: `Skill "` + name + `" not found. Available skills: ` + available, IsError: true}
}

// skillBlock writes §0.6's block, lines joined by \n with no trailing newline. With limit -1
// the Note line and the whole <skill_files> block are left out (S5); an empty sample keeps
// the block with an empty line inside (C6.15's pin).
func skillBlock(s SkillInfo, dir string, limit int) string {
	lines := []string{
		`<skill_content name="` + s.Name + `">`,
		"# Skill: " + s.Name,
		"",
		trimBody(s.Content),
		"",
		"Base directory for this skill: " + fileURL(dir),
		"Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.",
	}
	if limit >= 0 {
		if limit == 0 {
			limit = defaultSkillSample
		}
		var files []string
		for _, f := range sampleSkillFiles(dir, limit) {
			files = append(files, "<file>"+f+"</file>")
		}
		lines = append(lines, "Note: file list is sampled.", "", "<skill_files>", strings.Join(files, "\n"), "</skill_files>")
	}
	return strings.Join(append(lines, "</skill_content>"), "\n")
}

// sampleSkillFiles is up to limit files under dir, SKILL.md files left out, in the walk's
// order (code-point order, files before subdirectories, depth-first: C6.14's pin), as
// absolute paths reached through dir.
func sampleSkillFiles(dir string, limit int) []string {
	var out []string
	walkFollowing(dir, func(path string, isDir bool) bool {
		if len(out) >= limit {
			return false
		}
		if !isDir && filepath.Base(path) != "SKILL.md" {
			out = append(out, path)
		}
		return true
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

// fileURL is the WHATWG file URL of an absolute path, as Node's pathToFileURL writes it
// (C6.17's pin): each byte outside the URL path set is %XX, so a space is %20 and é is
// %C3%A9, while ( ) and ' stay.
func fileURL(path string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.WriteString("file://")
	for i := 0; i < len(path); i++ {
		c := path[i]
		switch {
		case c <= 0x20 || c >= 0x7F, strings.IndexByte("\"#%<>?`{}", c) >= 0:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// SkillsPrompt is the system-prompt catalog (§0.6): the preamble, then "## Available Skills"
// and one "- **name**: description" line per described skill, sorted by code point (C6.21's
// pin). A skill whose description is empty is left out (C6.22's pin). With no described skill
// it is "No skills are currently available."; with no skill source at all, "".
func (tk *Toolkit) SkillsPrompt() string {
	if tk == nil || tk.skills == nil {
		return ""
	}
	var described []SkillInfo
	for _, s := range tk.skills.skills {
		if s.Description != "" {
			described = append(described, s)
		}
	}
	if len(described) == 0 {
		return "No skills are currently available."
	}
	sort.SliceStable(described, func(i, j int) bool { return described[i].Name < described[j].Name })
	lines := []string{
		"Skills provide specialized instructions and workflows for specific tasks.",
		"Use the skill tool to load a skill when a task matches its description.",
		"",
		"## Available Skills",
	}
	for _, s := range described {
		lines = append(lines, "- **"+s.Name+"**: "+s.Description)
	}
	return strings.Join(lines, "\n")
}
