// Area skills: the toolkit's catalog (toolkit.skillsPrompt) and the list-only inventory
// (skills.list), upstream SPEC §3. toolkit.create's skill options are in area-tools.mjs.
import { lookupToolkit, register, unsupported } from "./kit.mjs"

export function install(tn) {
  register("toolkit.skillsPrompt", (args) => ({ prompt: lookupToolkit(args.toolkit).skillsPrompt() }))

  register("skills.list", (args) => {
    if (typeof tn.listSkills !== "function") throw unsupported("adapter: this toolnexus exports no listSkills")
    const inv = tn.listSkills(args.dirs)
    return {
      skills: inv.skills.map((s) => ({ name: s.name, description: s.description ?? null, location: s.location })),
      skipped: inv.skipped.map((s) => ({ location: s.location, reason: s.reason })),
    }
  })
}
