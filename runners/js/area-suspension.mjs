// Area suspension (upstream SPEC §10): a waitFor that calls back suspension.waitFor, and tool
// literals whose execute calls back suspension.tool and returns what the runner answered: a
// suspension ({output, isError: true, metadata: {pending: Request}}, §10's documented shape,
// which the port's pendingOf reads) or a plain result. The port's Request and Answer are plain
// objects, so the runner's go in and the port's come out as they are.
import { declareSlots, extendClient, extendToolkit, fault, isObject, slot } from "./kit.mjs"

function waitForStub(client) {
  // The port awaits what waitFor returns: the runner's Answer, or null as given.
  return async (request) => slot("suspension.waitFor", { client, request }).value ?? null
}

// suspendingTool is one toolkit.create suspendingTools entry, a Tool literal (source custom).
// The first call's ctx is the port's (undefined there); a retry's carries the answer.
function suspendingTool(toolkit, t) {
  return {
    name: t.name, description: t.description, inputSchema: t.inputSchema, source: "custom",
    async execute(input, ctx) {
      const call = { toolkit, name: t.name, input: input ?? {} }
      if (ctx?.answer != null) call.answer = ctx.answer
      const { value } = slot("suspension.tool", call)
      if (!isObject(value)) throw fault(`adapter: suspension.tool answered ${JSON.stringify(value)}, not an object`)
      if (value.pending != null) return { output: value.output, isError: true, metadata: { pending: value.pending } }
      return { output: value.output, isError: value.isError === true }
    },
  }
}

export const order = 100

export function install() {
  declareSlots("suspension.waitFor", "suspension.tool")
  extendClient((args, opts) => {
    if (args.waitFor) opts.waitFor = waitForStub(args.handle)
    return {}
  })
  // after the tools area's own extraTools (as the reference adapter adds them)
  extendToolkit((args, opts) => {
    if (args.suspendingTools) opts.extraTools = [...(opts.extraTools ?? []), ...args.suspendingTools.map((t) => suspendingTool(args.handle, t))]
  })
}
