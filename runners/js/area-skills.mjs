// Area skills: toolkit.create's skill options, the toolkit's catalog (toolkit.skillsPrompt) and
// the list-only inventory (skills.list), upstream SPEC §3.
import { extendToolkit, lookupToolkit, register, unsupported } from "./kit.mjs"

export const order = 60

export function install(tn) {
  // Skills only when asked (skillsDir; off without it).
  extendToolkit((args, opts) => {
    for (const k of ["skillsDir", "skillSampleLimit", "skillsFilter"]) if (args[k] !== undefined) opts[k] = args[k]
  })

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
