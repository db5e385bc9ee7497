package main

import toolnexus "github.com/muthuishere/toolnexus/golang"

// The skills area: the toolkit's catalog and the list-only inventory (§3). toolkit.create's
// skill options are in area_contract.go.

func opSkillsPrompt(a *adapter, x args, _ string) (any, error) {
	tk, err := a.toolkit(x.Toolkit)
	if err != nil {
		return nil, err
	}
	return map[string]any{"prompt": tk.SkillsPrompt()}, nil
}

func opSkillsList(_ *adapter, x args, _ string) (any, error) {
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
