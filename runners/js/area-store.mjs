// Area store: store.get, store.save and store.identity through the client's conversationStore()
// accessor, and the store client.create passes for store: "host".
import { extendClient, fault, lookupClient, register } from "./kit.mjs"

function storeOf(handle) {
  const store = lookupClient(handle).client.conversationStore()
  if (!store) throw fault("adapter: conversationStore() returned nothing")
  return store
}

// order: after transport, whose refusal of httpTimeoutMs comes before this area makes a store.
export const order = 30

export function install(tn) {
  // store: "host" is the adapter's own in-memory store, kept with the handle for store.identity.
  extendClient((args, opts) => {
    if (args.store !== "host") return undefined
    const hostStore = new tn.InMemoryConversationStore()
    opts.store = hostStore
    return { hostStore }
  })

  register("store.get", async (args) => ({ messages: (await storeOf(args.client).get(args.id ?? "")) ?? null }), { rank: 4 })

  register("store.save", async (args) => {
    await storeOf(args.client).save(args.id, args.messages)
    return {}
  }, { rank: 5 })

  register("store.identity", (args) => {
    const { client, hostStore } = lookupClient(args.client)
    return { same: hostStore !== undefined && client.conversationStore() === hostStore }
  }, { rank: 6 })
}
