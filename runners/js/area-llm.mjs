// Area llm: client.create, client.run, client.ask, and the bodyTransform and beforeLLM host
// functions client.create installs. Other areas add their own client options through the
// kit's extendClient (the recording fetch, the host store).
import { applyClientExtensions, clients, declareSlots, editTo, fault, isObject, lookupClient, lookupToolkit, register, slot, unsupported } from "./kit.mjs"

let tn // the port's exports, set by install

function bodyTransformStub(client) {
  return (body) => {
    const { value, inPlace } = slot("llm.bodyTransform", { client, body })
    return inPlace && isObject(value) ? editTo(body, value) : value ?? null
  }
}

function beforeLLMStub(client) {
  return (ev) => {
    const { value } = slot("llm.beforeLLM", { client, turn: ev.turn, messages: ev.messages, tools: ev.tools ?? null })
    return value ?? undefined // null: no override
  }
}

export { runReport }

// order: installed first, so its slots lead hello's list and its own client options come before
// every other area's extensions (kit.mjs installAreas).
export const order = 10

// runReport is a RunResult in the protocol's shape: what the port returned, missing stays null.
function runReport(res) {
  const toolCalls = Array.isArray(res.toolCalls) ? res.toolCalls.map((c) => c.name) : null
  // RunResult.toolCalls as given; an undefined metadata drops out of the JSON line
  const calls = Array.isArray(res.toolCalls)
    ? res.toolCalls.map((c) => ({ name: c.name, args: c.args, output: c.output, isError: c.isError, metadata: c.metadata }))
    : null
  const usage = res.usage ? { promptTokens: res.usage.promptTokens, completionTokens: res.usage.completionTokens, totalTokens: res.usage.totalTokens } : null
  // pending: the Request the run halted on (§10), a plain object as the port keeps it; absent when none
  return { text: res.text ?? null, turns: res.turns ?? null, toolCalls, calls, status: res.status ?? null,
    limit: res.limit ?? null, toolCallCount: res.toolCallCount ?? null, usage, messages: res.messages ?? null,
    ...(res.pending != null ? { pending: res.pending } : {}) }
}

// withRun resolves the handles, runs fn and reports what the port returned (missing stays
// null). With no toolkit named it passes an empty one, as the port's run needs a Toolkit.
async function withRun(args, fn) {
  const { client } = lookupClient(args.client)
  const empty = args.toolkit === undefined ? await tn.createToolkit({ builtins: false }) : undefined
  try {
    const res = (await fn(client, empty ?? lookupToolkit(args.toolkit))) ?? {}
    const report = runReport(res)
    if (res.__events) report.events = res.__events.map((ev) => (ev && ev.type === "done" ? { ...ev, result: runReport(ev.result ?? {}) } : ev))
    return report
  } finally {
    if (empty) await empty.close().catch(() => {})
  }
}

// drainStream consumes the port's async generator up to its `done` event, keeping every
// event (its fields are already the SPEC's names); the result carries them as `events`.
async function drainStream(gen) {
  const events = []
  for await (const ev of gen) {
    events.push(ev)
    if (ev && ev.type === "done") return { ...(ev.result ?? {}), __events: events }
  }
  throw fault("adapter: the stream ended without a done event")
}

export function install(port) {
  tn = port
  declareSlots("llm.bodyTransform", "llm.beforeLLM")

  register("client.create", (args) => {
    const opts = { baseUrl: args.baseUrl, style: args.style, model: args.model, apiKey: args.apiKey }
    for (const k of ["systemPrompt", "maxTurns", "requestParams"]) if (args[k] !== undefined) opts[k] = args[k]
    if (args.bodyTransform) opts.bodyTransform = bodyTransformStub(args.handle)
    if (args.beforeLLM) opts.hooks = { beforeLLM: beforeLLMStub(args.handle) }
    const kept = applyClientExtensions(args, opts)
    const client = tn.createClient(opts)
    if (!client) throw fault("adapter: createClient returned nothing")
    clients.set(args.handle, { client, ...kept })
    return {}
  }, { rank: 1 })

  // timed: cancelAfterMs is the run's AbortSignal (signal), the port's external cancel
  register("client.run", (args, timing) => {
    if (args.stream && args.history) throw unsupported("adapter: the JS port's stream() takes no history")
    const signal = timing?.signal
    return withRun(args, (client, toolkit) => {
      if (args.stream) return drainStream(client.stream(args.prompt, { toolkit, id: args.id, signal }))
      return client.run(args.prompt, args.history ? { toolkit, history: args.history, signal } : { toolkit, signal })
    })
  }, { timed: true, rank: 2 })

  // onText: the port's text callback (on_text); the deltas it received are relayed
  register("client.ask", async (args) => {
    const deltas = []
    const ctx = (toolkit) => ({ toolkit, ...(args.id === undefined ? {} : { id: args.id }), ...(args.onText ? { on_text: (d) => void deltas.push(d) } : {}) })
    const report = await withRun(args, (client, toolkit) => client.ask(args.prompt, ctx(toolkit)))
    if (args.onText) report.deltas = deltas
    return report
  }, { rank: 3 })
}
