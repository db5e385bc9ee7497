// Kit of the JS adapter (SPEC.md §3), written once for every area: the request loop and the
// response line (warnings, crashes), the area files found beside it and the op table they fill,
// the client and toolkit handles, the caller's cancel handle and `hello`. The pipes and the one host-function stub are
// in kit-wire.mjs, the error relay in kit-errors.mjs; areas import all of it from here.
import { readdirSync, readFileSync } from "node:fs"
import path from "node:path"
import { createInterface } from "node:readline"
import { fileURLToPath, pathToFileURL } from "node:url"
import { format } from "node:util"
import { errMessage, fault, relayError, stack, unsupported } from "./kit-errors.mjs"
import { installedSlots, log, writeErr, writeLine } from "./kit-wire.mjs"

export { fault, stack, unsupported } from "./kit-errors.mjs"
export { declareSlots, editTo, installedSlots, isObject, log, slot } from "./kit-wire.mjs"

const realWarn = console.warn.bind(console)
const realError = console.error.bind(console)

// A rejection nobody handles, or an exception nobody catches, would end a default Node 20
// process: the adapter keeps running and reports it in the next response's "crashes".
const crashes = []
for (const [event, what] of [["unhandledRejection", "unhandled rejection"], ["uncaughtException", "uncaught exception"]]) {
  process.on(event, (e) => {
    crashes.push(`${what}: ${stack(e)}`)
    log(crashes.at(-1))
  })
}

// --- the op table ------------------------------------------------------------------------------
const ops = new Map() // op -> {fn(args, timing), timed, rank}

// register adds an op. A timed op gets the caller's signal (cancelAfterMs/deadlineMs) and is
// answered 30 ms late (see handle): the MCP entry points, whose SDK rejects on later ticks.
// rank is the op's place in hello's list as the one-file adapter sent it; an op added since has
// none and follows them, in the order the areas registered theirs.
export function register(op, fn, { timed = false, rank } = {}) {
  if (ops.has(op)) throw new Error(`adapter: op ${op} registered twice`)
  ops.set(op, { fn, timed, rank: rank ?? Infinity })
}

// What areas add to the options client.create and toolkit.create hand the port (the recording
// fetch, the host store, the skill options), in area order, after the op's own. A client
// extension returns the fields to keep with the client's handle, or nothing.
const clientExtensions = []
export const extendClient = (fn) => void clientExtensions.push(fn)
export function applyClientExtensions(args, opts) {
  const kept = {}
  for (const fn of clientExtensions) Object.assign(kept, fn(args, opts))
  return kept
}
const toolkitExtensions = []
export const extendToolkit = (fn) => void toolkitExtensions.push(fn)
export function applyToolkitExtensions(args, opts) {
  for (const fn of toolkitExtensions) fn(args, opts)
}

// --- the areas ---------------------------------------------------------------------------------
// installAreas imports every area-*.mjs beside the kit and installs them by the `order` each
// exports (then by file name): the order their slots are declared and listed in hello, and their
// client and toolkit extensions applied. A new area is one file; nothing else names it.
export async function installAreas(port) {
  const dir = path.dirname(fileURLToPath(import.meta.url))
  const areas = []
  for (const file of readdirSync(dir).filter((f) => /^area-.+\.mjs$/.test(f)).sort()) {
    const area = await import(pathToFileURL(path.join(dir, file)).href)
    if (typeof area.order !== "number" || typeof area.install !== "function") {
      throw new Error(`${file} must export a number \`order\` and a function \`install\``)
    }
    areas.push({ file, area })
  }
  // sort is stable: equal orders stay in file-name order
  for (const { area } of areas.sort((a, b) => a.area.order - b.area.order)) area.install(port)
}

// --- handles -----------------------------------------------------------------------------------
export const clients = new Map() // handle -> {client, ...what extensions kept (hostStore)}
export const toolkits = new Map() // handle -> Toolkit

function lookup(map, what, handle) {
  if (!map.has(handle)) throw fault(`adapter: unknown ${what} handle ${JSON.stringify(handle)}`)
  return map.get(handle)
}
export const lookupClient = (handle) => lookup(clients, "client", handle)
export const lookupToolkit = (handle) => lookup(toolkits, "toolkit", handle)

// --- timing ------------------------------------------------------------------------------------
// makeTiming builds the caller's AbortSignal as a JS host would: cancelAfterMs calls
// controller.abort() (reason: an AbortError), deadlineMs is AbortSignal.timeout (reason: a
// TimeoutError); AbortSignal.any joins them.
function makeTiming(args) {
  const signals = []
  let timer
  if (typeof args.deadlineMs === "number") signals.push(AbortSignal.timeout(args.deadlineMs))
  if (typeof args.cancelAfterMs === "number") {
    const ctrl = new AbortController()
    signals.push(ctrl.signal)
    // 0 ms: already cancelled when the port is called (SPEC.md §3), never raced by a timer
    if (args.cancelAfterMs <= 0) ctrl.abort()
    else timer = setTimeout(() => ctrl.abort(), args.cancelAfterMs)
  }
  if (signals.length === 0) return undefined
  return { signal: signals.length === 1 ? signals[0] : AbortSignal.any(signals), stop: () => clearTimeout(timer) }
}

// --- warnings ----------------------------------------------------------------------------------
// capture points console.warn / console.error (the port's sink) at a collector for one request,
// teed to stderr; handle() puts the real ones back.
function capture() {
  const lines = []
  console.warn = console.error = (...a) => {
    const text = format(...a)
    writeErr(text + "\n")
    for (const l of text.split("\n")) if (l.trim() !== "") lines.push(l.replace(/\r$/, ""))
  }
  return lines
}

// --- the loop ----------------------------------------------------------------------------------
async function handle(req) {
  const args = req.args ?? {}
  const op = ops.get(req.op)
  const warnings = capture()
  const timing = op?.timed ? makeTiming(args) : undefined
  let resp
  try {
    if (!op) throw unsupported(`adapter: unknown op ${JSON.stringify(req.op)}`)
    resp = { id: req.id, ok: true, result: (await op.fn(args, timing)) ?? {} }
  } catch (e) {
    resp = { id: req.id, ok: false, error: relayError(e) }
  } finally {
    timing?.stop()
    console.warn = realWarn
    console.error = realError
  }
  // Node reports an unhandled rejection only after the microtask queue drains: give one the
  // library left behind the chance to surface on the MCP call that caused it.
  if (op?.timed) await new Promise((r) => setTimeout(r, 30))
  resp.warnings = warnings.slice()
  if (crashes.length > 0) resp.crashes = crashes.splice(0)
  return resp
}

function send(resp) {
  try {
    writeLine(resp)
  } catch (e) {
    const error = { kind: "failed", message: `adapter: cannot encode the response: ${errMessage(e)}` }
    writeLine({ id: resp.id, ok: false, error, warnings: resp.warnings })
  }
}

// stop closes every toolkit left open (waiting at most 2 s) and exits.
let stopping = false
async function stop() {
  stopping = true
  const closing = Promise.all([...toolkits.values()].map((tk) => tk.close().catch(() => {})))
  await Promise.race([closing, new Promise((r) => setTimeout(r, 2000).unref())])
  process.exit(0)
}

async function serveLine(line) {
  if (stopping || line.trim() === "") return
  let req
  try {
    req = JSON.parse(line)
  } catch (e) {
    log(`skipping malformed line: ${errMessage(e)}`)
    return
  }
  send(await handle(req))
  if (req.op === "shutdown") await stop()
}

// portPackage finds the nearest package.json above the entry that has a name (the port's own).
function portPackage(entry) {
  for (let dir = path.dirname(path.resolve(entry)); ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"))
      if (pkg && pkg.name) return { pkg, dir }
    } catch {} // none here, or unreadable: keep walking
    if (path.dirname(dir) === dir) return { pkg: {}, dir: "" }
  }
}

// serve adds hello (rank 0) and shutdown (rank 15), then answers stdin's requests one at a time.
// hello lists the ops by rank, so its line does not depend on the order the areas were wired in.
export function serve({ entry }) {
  register("hello", () => {
    const { pkg, dir } = portPackage(entry)
    const version = `${pkg.version ?? "unknown"}${dir ? ` (${dir})` : ""}`
    const names = [...ops.entries()].sort(([, a], [, b]) => (a.rank === b.rank ? 0 : a.rank < b.rank ? -1 : 1)).map(([name]) => name)
    return { port: "js", library: pkg.name ?? "toolnexus", version, runtime: `node ${process.version}`, ops: names, slots: installedSlots() }
  }, { rank: 0 })
  register("shutdown", () => ({}), { rank: 15 })

  let queue = Promise.resolve()
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false })
  rl.on("line", (line) => {
    queue = queue.then(() => serveLine(line)).catch((e) => log(`request loop: ${stack(e)}`))
  })
  rl.on("close", () => {
    queue = queue.then(() => (stopping ? undefined : stop()))
  })
}
