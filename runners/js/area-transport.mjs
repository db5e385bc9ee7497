// Area transport: the recording HTTP client. For httpClient: "recording", client.create passes
// the port a fetch that calls back `http` before each request it carries.
import { declareSlots, extendClient, slot, unsupported } from "./kit.mjs"

// recordingFetch reports each request, then sends it as the default fetch would.
function recordingFetch(client) {
  return (input, init) => {
    const url = typeof input === "string" ? input : input?.url ?? String(input)
    slot("transport.http", { client, method: init?.method ?? input?.method ?? "GET", url })
    return globalThis.fetch(input, init)
  }
}

// order: after llm, before store: httpTimeoutMs is refused before the host store is made.
export const order = 20

export function install() {
  declareSlots("transport.http")
  extendClient((args, opts) => {
    // The port takes a fetch function: a request timeout would live inside the host's fetch,
    // so there is no client setting to hand over. The message is the one expectations pin.
    if (args.httpTimeoutMs !== undefined) throw unsupported('adapter: httpTimeoutMs: the JS port takes a fetch function, so a timeout would live in the host fetch')
    if (args.httpClient === "recording") opts.fetch = recordingFetch(args.handle)
  })
}
