// Area hooks: afterLLM, beforeTool and afterTool stubs that call back hooks.* (upstream SPEC §8
// Hooks; beforeLLM is the llm area's). Each relays what the port gave it and returns what the
// runner answered: {result: {output, isError}} or {args}, already the port's override shape
// ({result: {..., pending}} is a suspension: the pending goes under the result's metadata).
import { declareSlots, extendClient, slot } from "./kit.mjs"

const resultJson = (r) => (r == null ? null : { output: r.output, isError: r.isError, ...(r.metadata !== undefined ? { metadata: r.metadata } : {}) })

// A result answered with pending (a guard-raised suspension, §10) becomes a suspension: the
// Request under metadata.pending, where the port's pendingOf reads it.
function withPending(ov) {
  if (ov?.result?.pending == null) return ov
  const { pending, ...result } = ov.result
  return { ...ov, result: { ...result, metadata: { pending } } }
}

export const order = 70

export function install() {
  declareSlots("hooks.afterLLM", "hooks.beforeTool", "hooks.afterTool")
  extendClient((args, opts) => {
    const client = args.handle
    const add = {}
    if (args.afterLLM) add.afterLLM = (ev) => void slot("hooks.afterLLM", { client, turn: ev.turn, model: ev.model ?? null, response: ev.response ?? null })
    if (args.beforeTool) {
      add.beforeTool = (ev) => withPending(slot("hooks.beforeTool", { client, name: ev.name, args: ev.args, id: ev.id ?? null, turn: ev.turn }).value ?? undefined)
    }
    if (args.afterTool) {
      add.afterTool = (ev) => slot("hooks.afterTool", { client, name: ev.name, args: ev.args, id: ev.id ?? null, turn: ev.turn, result: resultJson(ev.result) }).value ?? undefined
    }
    if (Object.keys(add).length) opts.hooks = { ...(opts.hooks ?? {}), ...add }
    return {}
  })
}
