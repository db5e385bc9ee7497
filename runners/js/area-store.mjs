// Area store: store.get, store.save and store.identity through the client's conversationStore()
// accessor, and the store client.create passes for store: "host".
import { extendClient, fault, lookupClient, register } from "./kit.mjs"

function storeOf(handle) {
  const store = lookupClient(handle).client.conversationStore()
  if (!store) throw fault("adapter: conversationStore() returned nothing")
  return store
}

export function install(tn) {
  // store: "host" is the adapter's own in-memory store, kept with the handle for store.identity.
  extendClient((args, opts) => {
    if (args.store !== "host") return undefined
    const hostStore = new tn.InMemoryConversationStore()
    opts.store = hostStore
    return { hostStore }
  })

  register("store.get", async (args) => ({ messages: (await storeOf(args.client).get(args.id ?? "")) ?? null }))

  register("store.save", async (args) => {
    await storeOf(args.client).save(args.id, args.messages)
    return {}
  })

  register("store.identity", (args) => {
    const { client, hostStore } = lookupClient(args.client)
    return { same: hostStore !== undefined && client.conversationStore() === hostStore }
  })
}
