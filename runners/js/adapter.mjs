// toolnexus conformance adapter for the JS port, a relay of SPEC.md §3:
//   node adapter.mjs <absolute path of the port's entry file>
// One JSON request per line on stdin, served one at a time; one response line each on stdout.
// Host functions call back to the runner, which decides what they do and judges errors
// (errors.json). Only the port's public API is used: createClient, createToolkit, loadMcp,
// listMcpTools, InMemoryConversationStore, defineTool, httpTool, sanitize and the Client /
// Toolkit methods.
//
// This file wires the kit (kit.mjs: loop, op table, handles, host-function stub, error relay)
// to one file per area. The kit is imported before the port, so stdout is already kept for
// protocol lines and crashes are already caught while the port loads.
import path from "node:path"
import { pathToFileURL } from "node:url"
import { log, serve, stack } from "./kit.mjs"
import * as llm from "./area-llm.mjs"
import * as transport from "./area-transport.mjs"
import * as store from "./area-store.mjs"
import * as tools from "./area-tools.mjs"
import * as mcp from "./area-mcp.mjs"
import * as skills from "./area-skills.mjs"
import * as hooks from "./area-hooks.mjs"
import * as resilience from "./area-resilience.mjs"
import * as memory from "./area-memory.mjs"
import * as suspension from "./area-suspension.mjs"
import * as translate from "./area-translate.mjs"

const entry = process.argv[2] ?? ""
let tn
try {
  tn = await import(pathToFileURL(path.resolve(entry)).href)
} catch (e) {
  log(`cannot import the toolnexus JS port at ${JSON.stringify(entry)}: ${stack(e)}`)
  process.exit(3)
}

// hello lists the ops in the order the one-file adapter did, so its line stays the same.
const order = ["hello", "client.create", "client.run", "client.ask", "store.get", "store.save", "store.identity",
  "toolkit.create", "toolkit.close", "mcp.load", "mcp.list", "toolkit.describe", "tool.execute", "adapters", "sanitize", "shutdown"]

// llm before transport and store: their client options follow the llm area's own. A wiring
// fault (an op registered twice) ends the process: the kit's crash handler would swallow it.
try {
  for (const area of [llm, transport, store, tools, mcp, skills, hooks, resilience, memory, suspension, translate]) area.install(tn)
  serve({ entry, order })
} catch (e) {
  log(`cannot wire the adapter: ${stack(e)}`)
  process.exit(1)
}
