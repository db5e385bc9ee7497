// Area translate (upstream SPEC §11): client.translate hands one request to the port's
// client.translate, with exactly the fields given, and reports its result as the port returned
// it (arguments as the port typed them). The toolkit is declared, never run.
import { lookupClient, lookupToolkit, register, unsupported } from "./kit.mjs"

export const order = 110

export function install() {
  register("client.translate", async (args) => {
    const { client } = lookupClient(args.client)
    if (typeof client.translate !== "function") throw unsupported("adapter: this JS port's client has no translate (§11)")
    const req = { messages: args.messages }
    for (const k of ["tools", "toolChoice", "system", "maxTokens"]) if (args[k] !== undefined) req[k] = args[k]
    if (args.toolkit !== undefined) req.toolkit = lookupToolkit(args.toolkit)
    const res = (await client.translate(req)) ?? {}
    const toolCalls = Array.isArray(res.toolCalls)
      ? res.toolCalls.map((c) => ({ id: c?.id ?? null, name: c?.name ?? null, arguments: c?.arguments ?? null }))
      : null
    const u = res.usage
    const usage = u ? { promptTokens: u.promptTokens ?? null, completionTokens: u.completionTokens ?? null, totalTokens: u.totalTokens ?? null } : null
    return { text: res.text ?? null, toolCalls, finishReason: res.finishReason ?? null, usage, model: res.model ?? null }
  })
}
