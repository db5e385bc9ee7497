// toolnexus conformance adapter for the JS port, a relay of SPEC.md §3:
//   node adapter.mjs <absolute path of the port's entry file>
// One JSON request per line on stdin, served one at a time; one response line each on stdout.
// Host functions call back to the runner, which decides what they do and judges errors
// (errors.json). Only the port's public API is used: createClient, createToolkit, loadMcp,
// listMcpTools, InMemoryConversationStore, defineTool, httpTool, sanitize and the Client /
// Toolkit methods.
//
// This file wires the kit (kit.mjs: loop, op table, handles, host-function stub, error relay)
// to the area files beside it, which the kit finds itself (area-*.mjs). The kit is imported
// before the port, so stdout is already kept for protocol lines and crashes are already caught
// while the port loads.
import path from "node:path"
import { pathToFileURL } from "node:url"
import { installAreas, log, serve, stack } from "./kit.mjs"

const entry = process.argv[2] ?? ""
let tn
try {
  tn = await import(pathToFileURL(path.resolve(entry)).href)
} catch (e) {
  log(`cannot import the toolnexus JS port at ${JSON.stringify(entry)}: ${stack(e)}`)
  process.exit(3)
}

// A wiring fault (an area file that does not load, an op registered twice) ends the process:
// the kit's crash handler would swallow it.
try {
  await installAreas(tn)
  serve({ entry })
} catch (e) {
  log(`cannot wire the adapter: ${stack(e)}`)
  process.exit(1)
}
