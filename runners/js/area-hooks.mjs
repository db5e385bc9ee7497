// Area hooks: afterLLM, beforeTool and afterTool stubs that call back hooks.* (upstream SPEC §8
// Hooks; beforeLLM is the llm area's). Each relays what the port gave it and returns what the
// runner answered: {result: {output, isError}} or {args}, already the port's override shape.
import { declareSlots, extendClient, slot } from "./kit.mjs"

const resultJson = (r) => (r == null ? null : { output: r.output, isError: r.isError, ...(r.metadata !== undefined ? { metadata: r.metadata } : {}) })

export function install() {
  declareSlots("hooks.afterLLM", "hooks.beforeTool", "hooks.afterTool")
  extendClient((args, opts) => {
    const client = args.handle
    const add = {}
    if (args.afterLLM) add.afterLLM = (ev) => void slot("hooks.afterLLM", { client, turn: ev.turn, model: ev.model ?? null, response: ev.response ?? null })
    if (args.beforeTool) {
      add.beforeTool = (ev) => slot("hooks.beforeTool", { client, name: ev.name, args: ev.args, id: ev.id ?? null, turn: ev.turn }).value ?? undefined
    }
    if (args.afterTool) {
      add.afterTool = (ev) => slot("hooks.afterTool", { client, name: ev.name, args: ev.args, id: ev.id ?? null, turn: ev.turn, result: resultJson(ev.result) }).value ?? undefined
    }
    if (Object.keys(add).length) opts.hooks = { ...(opts.hooks ?? {}), ...add }
    return {}
  })
}
