package toolnexus

import (
	"os"
	"path/filepath"
	"sort"
)

// SkillInfo is one discovered skill (§3 Info): Location is the absolute path of its SKILL.md
// as reached through the skills root (a symlink is not resolved), Content its body. The
// names follow the Go port's, so one adapter drives both.
type SkillInfo struct {
	Name        string
	Description string
	Location    string
	Content     string
}

// SkillSkipReason is why a SKILL.md was not loaded (§3 S3).
type SkillSkipReason string

// SkillSkip is a SKILL.md that was not loaded, with its typed reason.
type SkillSkip struct {
	Location string
	Reason   SkillSkipReason
}

// SkillInventory is what ListSkills returns: every loaded skill and every skipped file.
type SkillInventory struct {
	Skills  []SkillInfo
	Skipped []SkillSkip
}

// LoadSkillsOptions names the skills roots for ListSkills (the reference reads skills from
// directories only: §3 S1's data skills are not part of the shared contract's §0).
type LoadSkillsOptions struct {
	Dirs []string
}

// ListSkills discovers and validates the skills under opts.Dirs without building a toolkit
// (§3 S3); it is unfiltered, since it exists to write the filter.
func ListSkills(opts LoadSkillsOptions) *SkillInventory {
	inv, _ := discoverSkills(opts.Dirs)
	return &inv
}

// discoverSkills reads every SKILL.md under dirs, in root order and, within a root, in the
// walk's order (walkFollowing), so "first name wins" (§0.5) means the same on every run. It
// returns the warnings for names dropped as duplicates.
func discoverSkills(dirs []string) (SkillInventory, []string) {
	inv := SkillInventory{Skills: []SkillInfo{}, Skipped: []SkillSkip{}}
	var warnings []string
	seen := map[string]string{}
	for _, dir := range dirs {
		root, err := filepath.Abs(dir)
		if err != nil {
			continue
		}
		for _, loc := range skillFiles(root) {
			b, err := os.ReadFile(loc)
			if err != nil {
				inv.Skipped = append(inv.Skipped, SkillSkip{Location: loc, Reason: SkipUnreadable})
				continue
			}
			name, desc, body, skip := parseSkillFile(b)
			if skip == "" {
				if first, dup := seen[name]; dup {
					warnings = append(warnings, "[toolnexus] duplicate skill name \""+name+"\" at "+loc+" — keeping the first, "+first)
					skip = SkipDuplicateName
				}
			}
			if skip != "" {
				inv.Skipped = append(inv.Skipped, SkillSkip{Location: loc, Reason: skip})
				continue
			}
			seen[name] = loc
			inv.Skills = append(inv.Skills, SkillInfo{Name: name, Description: desc, Location: loc, Content: body})
		}
	}
	return inv, warnings
}

// skillFiles is every SKILL.md under root (the glob **/SKILL.md), following symlinked
// directories and symlinked files, each real directory entered once (a cycle ends there,
// §3). node_modules and .git are not searched (C6.3's pin): vendored and VCS trees are not
// the author's skills.
func skillFiles(root string) []string {
	var out []string
	walkFollowing(root, func(path string, isDir bool) bool {
		if isDir {
			base := filepath.Base(path)
			return path == root || (base != "node_modules" && base != ".git")
		}
		if filepath.Base(path) == "SKILL.md" {
			out = append(out, path)
		}
		return true
	})
	return out
}

// walkFollowing visits dir's entries in code-point order, files before subdirectories, then
// descends depth-first, following symlinks to directories and files; a directory whose real
// path was already entered is not entered again. visit returns false to skip a directory.
func walkFollowing(dir string, visit func(path string, isDir bool) bool) {
	entered := map[string]bool{}
	var walk func(dir string)
	walk = func(dir string) {
		real, err := filepath.EvalSymlinks(dir)
		if err != nil || entered[real] {
			return
		}
		entered[real] = true
		if !visit(dir, true) {
			return
		}
		names, err := readDirNames(dir)
		if err != nil {
			return
		}
		var subdirs []string
		for _, n := range names {
			p := filepath.Join(dir, n)
			fi, err := os.Stat(p) // follows a symlink; a dangling one is skipped
			if err != nil {
				continue
			}
			if fi.IsDir() {
				subdirs = append(subdirs, p)
			} else if fi.Mode().IsRegular() {
				visit(p, false)
			}
		}
		for _, p := range subdirs {
			walk(p)
		}
	}
	walk(dir)
}

func readDirNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	sort.Strings(names) // Go compares strings bytewise: UTF-8 byte order is code-point order
	return names, err
}
