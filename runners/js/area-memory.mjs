// Area memory: the port's Conversation (client.conversation({toolkit})) and its send, reset and
// messages (upstream SPEC §8 Conversation memory). A stream with an id is the llm area's.
import { fault, lookupClient, lookupToolkit, register } from "./kit.mjs"
import { runReport } from "./area-llm.mjs"

let tn // the port's exports, set by install
const conversations = new Map() // handle -> the port's Conversation

function lookupConversation(handle) {
  if (!conversations.has(handle)) throw fault(`adapter: unknown conversation handle ${JSON.stringify(handle)}`)
  return conversations.get(handle)
}

export const order = 90

export function install(port) {
  tn = port
  register("conversation.create", async (args) => {
    const { client } = lookupClient(args.client)
    // none named: an empty toolkit (builtins off), as a run gets; it holds nothing to close
    const toolkit = args.toolkit === undefined ? await tn.createToolkit({ builtins: false }) : lookupToolkit(args.toolkit)
    conversations.set(args.handle, client.conversation({ toolkit }))
    return {}
  })
  register("conversation.send", async (args) => runReport((await lookupConversation(args.conversation).send(args.prompt)) ?? {}))
  register("conversation.reset", (args) => {
    lookupConversation(args.conversation).reset()
    return {}
  })
  register("conversation.messages", (args) => ({ messages: lookupConversation(args.conversation).messages ?? null }))
}
