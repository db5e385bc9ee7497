package main

import toolnexus "github.com/muthuishere/toolnexus/golang"

// The skills area: the toolkit's catalog, the list-only inventory (§3), and toolkit.create's
// skill source.

var skillsArea = registerArea(area{name: "skills", toolkitOptions: optionOf(skillOptions),
	ops: map[string]opFunc{"toolkit.skillsPrompt": op(skillsPrompt), "skills.list": op(skillsList)}})

// skillArgs are toolkit.create's skill source (absent: off).
type skillArgs struct {
	SkillsDir        []string
	SkillSampleLimit int
	SkillsFilter     map[string]bool
}

func skillOptions(_ *kit, _ string, x skillArgs, opts *toolnexus.Options) error {
	opts.SkillsDir, opts.SkillSampleLimit, opts.SkillsFilter = x.SkillsDir, x.SkillSampleLimit, x.SkillsFilter
	return nil
}

func skillsPrompt(k *kit, x struct{ Toolkit string }, _ request) (any, error) {
	tk, err := lookup[*toolnexus.Toolkit](k.handles, x.Toolkit)
	if err != nil {
		return nil, err
	}
	return map[string]any{"prompt": tk.SkillsPrompt()}, nil
}

func skillsList(_ *kit, x struct{ Dirs []string }, _ request) (any, error) {
	inv := toolnexus.ListSkills(toolnexus.LoadSkillsOptions{Dirs: x.Dirs})
	skills, skipped := []any{}, []any{}
	if inv != nil {
		for _, s := range inv.Skills {
			skills = append(skills, map[string]any{"name": s.Name, "description": s.Description, "location": s.Location})
		}
		for _, s := range inv.Skipped {
			skipped = append(skipped, map[string]any{"location": s.Location, "reason": string(s.Reason)})
		}
	}
	return map[string]any{"skills": skills, "skipped": skipped}, nil
}
