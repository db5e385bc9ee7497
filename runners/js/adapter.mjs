// toolnexus conformance adapter for the JS port (SPEC.md §3).
//
//   node adapter.mjs <absolute path of the port's entry file>
//
// Reads one JSON request per line on stdin, serves them one at a time (queued, each awaited),
// and writes exactly one JSON response line per request on stdout. Nothing else reaches
// stdout: process.stdout.write and console.log/info/debug are pointed at stderr at start-up,
// and responses go through a private reference to the real stdout writer.
//
// Everything goes through the port's public API: createClient, createToolkit, loadMcp,
// listMcpTools, InMemoryConversationStore, Client.run / stream / ask / conversationStore,
// Toolkit.tools / mcpStatus / close, and host tools of the port's Tool shape
// ({name, description, inputSchema, source, execute}).
import { readFileSync, existsSync } from "node:fs"
import path from "node:path"
import { createInterface } from "node:readline"
import { pathToFileURL } from "node:url"
import { format } from "node:util"

// --- stdout protection: responses only --------------------------------------------------------
const writeOut = process.stdout.write.bind(process.stdout)
const writeErr = process.stderr.write.bind(process.stderr)
process.stdout.write = (chunk, ...rest) => writeErr(chunk, ...rest)
const realWarn = console.warn.bind(console)
const realError = console.error.bind(console)
console.log = (...a) => writeErr(format(...a) + "\n")
console.info = console.log
console.debug = console.log

function log(msg) {
  writeErr(`[adapter] ${msg}\n`)
}

// A rejection nobody handles, or an exception nobody catches, would end a default Node 20
// process: the adapter keeps running so it can tell the runner, which judges it (the next
// response carries it in "crashes"); it never swallows one.
const crashes = []
process.on("unhandledRejection", (e) => {
  crashes.push(`unhandled rejection: ${e && e.stack ? e.stack : String(e)}`)
  log(crashes[crashes.length - 1])
})
process.on("uncaughtException", (e) => {
  crashes.push(`uncaught exception: ${e && e.stack ? e.stack : String(e)}`)
  log(crashes[crashes.length - 1])
})

const OPS = [
  "hello", "client.create", "client.run", "client.ask", "store.get", "store.save",
  "store.identity", "toolkit.create", "toolkit.close", "mcp.load", "mcp.list", "shutdown",
]

// --- the port ---------------------------------------------------------------------------------
const entry = process.argv[2]
if (!entry || !existsSync(entry)) {
  log(`usage: node adapter.mjs <port entry file> (got ${JSON.stringify(entry)})`)
  process.exit(3)
}
let tn
try {
  tn = await import(pathToFileURL(path.resolve(entry)).href)
} catch (e) {
  log(`cannot import the toolnexus JS port at ${entry}: ${e && e.stack ? e.stack : String(e)}`)
  process.exit(3)
}

// portPackage finds the nearest package.json above the entry (the port's own).
function portPackage() {
  let dir = path.dirname(path.resolve(entry))
  for (;;) {
    const p = path.join(dir, "package.json")
    if (existsSync(p)) {
      try {
        const pkg = JSON.parse(readFileSync(p, "utf8"))
        if (pkg && pkg.name) return { pkg, dir }
      } catch {
        // keep walking
      }
    }
    const parent = path.dirname(dir)
    if (parent === dir) return { pkg: {}, dir: "" }
    dir = parent
  }
}

// --- errors -----------------------------------------------------------------------------------
class AdapterError extends Error {
  constructor(kind, message) {
    super(message)
    this.kind = kind
  }
}
const unsupported = (msg) => new AdapterError("unsupported", msg)
const adapterFailed = (msg) => new AdapterError("failed", msg)

// Ops whose input is a config or an option set: there a rejection of the input is "invalid".
const CONFIG_OPS = new Set(["client.create", "toolkit.create", "mcp.load", "mcp.list"])
const INVALID_CODES = new Set(["ENOENT", "ENOTDIR", "EISDIR", "ERR_INVALID_URL", "ERR_INVALID_ARG_TYPE", "ERR_INVALID_ARG_VALUE"])
const INVALID_WORDS = /\b(invalid|unknown|not supported|unsupported|no such file)\b/i

function errName(e) {
  return e && typeof e === "object" ? e.name : undefined
}

// errorType names what the port threw (SPEC.md §3): the error's name ("AbortError",
// "TimeoutError", "TypeError"), else its constructor; none for the adapter's own errors.
function errorType(e) {
  if (e instanceof AdapterError) return undefined
  if (e && typeof e === "object") return String(e.name ?? e.constructor?.name ?? "Object")
  return typeof e
}

// errorKind maps what the port threw to a protocol kind. Cancel and deadline come from the
// error the port rejected with, i.e. the signal's reason (SPEC.md §3): an AbortError is a
// cancel, a TimeoutError a deadline. The adapter's timers never decide it.
function errorKind(op, e) {
  if (e instanceof AdapterError) return e.kind
  if (errName(e) === "AbortError") return "cancelled"
  if (errName(e) === "TimeoutError") return "deadline"
  const msg = errMessage(e)
  if (/^No API key/.test(msg)) return "invalid"
  if (CONFIG_OPS.has(op)) {
    if (e instanceof SyntaxError) return "invalid"
    if (e && typeof e === "object" && INVALID_CODES.has(e.code)) return "invalid"
    if (e instanceof TypeError && /url|config|command/i.test(msg)) return "invalid"
    if (INVALID_WORDS.test(msg)) return "invalid"
  }
  return "failed"
}

function errMessage(e) {
  if (e && typeof e === "object" && "message" in e && e.message !== undefined) return String(e.message)
  return String(e)
}

// --- arguments --------------------------------------------------------------------------------
// The fields each op (and nested object) knows, as in schema/protocol.schema.json. SPEC.md §3:
// an argument this adapter does not know is "unsupported", named.
const TIMING_ARGS = ["cancelAfterMs", "deadlineMs"]
const KNOWN_ARGS = {
  hello: [], shutdown: [],
  "client.create": ["handle", "baseUrl", "style", "model", "apiKey", "systemPrompt", "maxTurns", "requestParams",
    "bodyTransform", "beforeLLM", "httpClient", "store"],
  "client.run": ["client", "toolkit", "prompt", "stream", "history"],
  "client.ask": ["client", "toolkit", "prompt", "id"],
  "store.get": ["client", "id"], "store.identity": ["client", "id"], "store.save": ["client", "id", "messages"],
  "toolkit.create": ["handle", "mcpConfig", "extraTools", ...TIMING_ARGS],
  "toolkit.close": ["toolkit"],
  "mcp.load": ["mcpConfig", "context", ...TIMING_ARGS], "mcp.list": ["mcpConfig", "context", ...TIMING_ARGS],
}
const KNOWN_NESTED = {
  bodyTransform: ["delete", "set", "setNested", "appendToLastUser", "inPlace", "returnNull"],
  beforeLLM: ["setLastUserContent", "tools"],
  mcpConfig: ["file", "inline"],
}

function checkArgs(op, args) {
  const known = KNOWN_ARGS[op]
  if (!known) return // an unknown op is answered by handle
  const check = (where, obj, names) => {
    for (const k of Object.keys(obj)) {
      if (!names.includes(k)) throw unsupported(`adapter: unknown argument ${JSON.stringify(where ? `${where}.${k}` : k)}`)
    }
  }
  check("", args, known)
  for (const [k, names] of Object.entries(KNOWN_NESTED)) {
    if (args[k] && typeof args[k] === "object" && !Array.isArray(args[k])) check(k, args[k], names)
  }
  for (const t of Array.isArray(args.extraTools) ? args.extraTools : []) {
    if (t && typeof t === "object") check("extraTools[]", t, ["name", "description", "inputSchema", "output"])
  }
}

// --- timing -----------------------------------------------------------------------------------
// makeTiming builds the caller's AbortSignal as a JS host would: cancelAfterMs calls
// controller.abort() (reason: an AbortError), deadlineMs is AbortSignal.timeout (reason: a
// TimeoutError); AbortSignal.any joins them.
function makeTiming(args) {
  const has = (k) => typeof args[k] === "number"
  if (!has("cancelAfterMs") && !has("deadlineMs")) return undefined
  const signals = []
  const t = { timers: [] }
  if (has("deadlineMs")) signals.push(AbortSignal.timeout(args.deadlineMs))
  if (has("cancelAfterMs")) {
    const ctrl = new AbortController()
    signals.push(ctrl.signal)
    // 0 ms: already cancelled when the port is called (SPEC.md §3), never raced by a timer
    if (args.cancelAfterMs <= 0) ctrl.abort()
    else t.timers.push(setTimeout(() => ctrl.abort(), args.cancelAfterMs))
  }
  t.signal = signals.length === 1 ? signals[0] : AbortSignal.any(signals)
  t.stop = () => t.timers.forEach(clearTimeout)
  return t
}

// --- state ------------------------------------------------------------------------------------
const clients = new Map() // handle -> {client, rec, hostStore}
const toolkits = new Map() // handle -> Toolkit

function lookupClient(handle) {
  const c = clients.get(handle)
  if (!c) throw adapterFailed(`adapter: unknown client handle ${JSON.stringify(handle)}`)
  return c
}

function lookupToolkit(handle) {
  if (handle === undefined || handle === null || handle === "") return undefined
  const tk = toolkits.get(handle)
  if (!tk) throw adapterFailed(`adapter: unknown toolkit handle ${JSON.stringify(handle)}`)
  return tk
}

// jsonCopy is a deep copy of a JSON-like value (structuredClone, else a JSON round trip).
function jsonCopy(v) {
  try {
    return structuredClone(v)
  } catch {
    try {
      return JSON.parse(JSON.stringify(v))
    } catch (e) {
      return { adapterError: `cannot copy: ${errMessage(e)}` }
    }
  }
}

// editLastUser returns a copy of msgs where the last message with role "user" is a copy whose
// content is edit(content); the port's own transcript objects are never changed.
function editLastUser(msgs, edit) {
  if (!Array.isArray(msgs)) return msgs
  const out = msgs.slice()
  for (let i = out.length - 1; i >= 0; i--) {
    const m = out[i]
    if (m && typeof m === "object" && m.role === "user") {
      out[i] = { ...m, content: edit(m.content) }
      break
    }
  }
  return out
}

// editInPlace is SPEC.md §3's inPlace transform: it edits the very objects it received (the
// body, the last user message inside it, the nested object at a setNested key) and returns
// the same body, as a host's in-place rewrite does (A4.4).
function editInPlace(body, t) {
  for (const k of t.delete ?? []) delete body[k]
  if (t.set) for (const [k, v] of Object.entries(t.set)) body[k] = jsonCopy(v)
  if (t.setNested) {
    for (const [k, sub] of Object.entries(t.setNested)) {
      if (!body[k] || typeof body[k] !== "object" || Array.isArray(body[k])) body[k] = {}
      Object.assign(body[k], jsonCopy(sub))
    }
  }
  if (typeof t.appendToLastUser === "string" && Array.isArray(body.messages)) {
    for (let i = body.messages.length - 1; i >= 0; i--) {
      const m = body.messages[i]
      if (m && typeof m === "object" && m.role === "user") {
        if (typeof m.content === "string") m.content += t.appendToLastUser
        break
      }
    }
  }
  return body
}

// --- ops --------------------------------------------------------------------------------------
function opHello() {
  const { pkg, dir } = portPackage()
  const version = `${pkg.version ?? "unknown"}${dir ? ` (${dir})` : ""}`
  return { port: "js", library: pkg.name ?? "toolnexus", version, runtime: `node ${process.version}`, ops: OPS }
}

function opClientCreate(args) {
  const rec = { transformSaw: [], hookSaw: [], requests: 0 }
  const entry = { rec, client: undefined, hostStore: undefined }
  const opts = { baseUrl: args.baseUrl, style: args.style, model: args.model, apiKey: args.apiKey }
  if (args.systemPrompt !== undefined) opts.systemPrompt = args.systemPrompt
  if (args.maxTurns !== undefined) opts.maxTurns = args.maxTurns
  if (args.requestParams !== undefined) opts.requestParams = args.requestParams
  if (args.bodyTransform !== undefined) {
    const t = args.bodyTransform
    opts.bodyTransform = (body) => {
      rec.transformSaw.push(jsonCopy(body))
      if (t.returnNull) return null
      if (t.inPlace) return editInPlace(body, t)
      const out = { ...body }
      for (const k of t.delete ?? []) delete out[k]
      if (t.set) for (const [k, v] of Object.entries(t.set)) out[k] = jsonCopy(v)
      if (t.setNested) {
        for (const [k, sub] of Object.entries(t.setNested)) {
          const old = out[k] && typeof out[k] === "object" && !Array.isArray(out[k]) ? out[k] : {}
          out[k] = { ...old, ...jsonCopy(sub) }
        }
      }
      if (typeof t.appendToLastUser === "string" && "messages" in out) {
        out.messages = editLastUser(out.messages, (c) => (typeof c === "string" ? c + t.appendToLastUser : c))
      }
      return out
    }
  }
  if (args.beforeLLM !== undefined) {
    const h = args.beforeLLM
    opts.hooks = {
      beforeLLM(ev) {
        rec.hookSaw.push({
          turn: ev.turn,
          messageCount: Array.isArray(ev.messages) ? ev.messages.length : 0,
          toolCount: Array.isArray(ev.tools) ? ev.tools.length : 0,
        })
        const ov = {}
        if (typeof h.setLastUserContent === "string") ov.messages = editLastUser(ev.messages, () => h.setLastUserContent)
        if (Array.isArray(h.tools)) ov.tools = jsonCopy(h.tools)
        return ov
      },
    }
  }
  switch (args.httpClient ?? "default") {
    case "default":
      break
    case "recording":
      opts.fetch = (input, init) => {
        rec.requests++
        return globalThis.fetch(input, init)
      }
      break
    default:
      throw unsupported(`adapter: httpClient ${JSON.stringify(args.httpClient)}`)
  }
  switch (args.store ?? "default") {
    case "default":
      break
    case "host":
      entry.hostStore = new tn.InMemoryConversationStore()
      opts.store = entry.hostStore
      break
    default:
      throw unsupported(`adapter: store ${JSON.stringify(args.store)}`)
  }
  entry.client = tn.createClient(opts)
  if (!entry.client) throw adapterFailed("adapter: createClient returned nothing")
  clients.set(args.handle, entry)
  return {}
}

// withRun resolves handles, resets the recorder, runs fn and builds the run report. With no
// toolkit named it passes an empty one (builtins off), as the port's run needs a Toolkit.
async function withRun(args, fn) {
  const entry = lookupClient(args.client)
  let tk = lookupToolkit(args.toolkit)
  let empty
  if (!tk) {
    empty = await tn.createToolkit({ builtins: false })
    tk = empty
  }
  const rec = entry.rec
  rec.transformSaw = []
  rec.hookSaw = []
  const base = rec.requests
  try {
    const res = await fn(entry.client, tk)
    // SPEC.md §3: what the port returned, nothing invented; missing stays null.
    const ok = res && typeof res === "object"
    return {
      text: ok ? res.text ?? null : null,
      turns: ok ? res.turns ?? null : null,
      toolCalls: ok && Array.isArray(res.toolCalls) ? res.toolCalls.map((c) => c.name) : null,
      transformSaw: rec.transformSaw.slice(),
      hookSaw: rec.hookSaw.slice(),
      httpRequests: rec.requests - base,
    }
  } finally {
    if (empty) await empty.close().catch(() => {})
  }
}

// drainStream consumes the port's async generator up to its `done` event.
async function drainStream(gen) {
  for await (const ev of gen) {
    if (ev && ev.type === "done") return ev.result ?? null
  }
  throw adapterFailed("adapter: the stream ended without a done event")
}

async function opClientRun(args) {
  const hasHistory = Array.isArray(args.history)
  if (args.stream && hasHistory) throw unsupported("adapter: the JS port's stream() takes no history")
  return withRun(args, (client, toolkit) => {
    if (args.stream) return drainStream(client.stream(args.prompt, { toolkit }))
    if (hasHistory) return client.run(args.prompt, { toolkit, history: jsonCopy(args.history) })
    return client.run(args.prompt, { toolkit })
  })
}

async function opClientAsk(args) {
  return withRun(args, (client, toolkit) => client.ask(args.prompt, { toolkit, id: args.id }))
}

function storeOf(entry) {
  const store = entry.client.conversationStore()
  if (!store) throw adapterFailed("adapter: conversationStore() returned nothing")
  return store
}

async function opStoreGet(args) {
  const msgs = await storeOf(lookupClient(args.client)).get(args.id ?? "")
  return { messages: msgs === undefined || msgs === null ? null : msgs }
}

async function opStoreSave(args) {
  await storeOf(lookupClient(args.client)).save(args.id ?? "", Array.isArray(args.messages) ? args.messages : [])
  return {}
}

function opStoreIdentity(args) {
  const entry = lookupClient(args.client)
  const same = entry.hostStore !== undefined && entry.client.conversationStore() === entry.hostStore
  return { same }
}

// mcpInput is what the port's input parameter receives: the path for {file}, the object for
// {inline}.
function mcpInput(cfg) {
  if (cfg === undefined) return undefined
  const hasFile = cfg && typeof cfg.file === "string"
  const hasInline = cfg && cfg.inline && typeof cfg.inline === "object"
  if (hasFile && !hasInline) return cfg.file
  if (hasInline && !hasFile) return cfg.inline
  throw unsupported("adapter: mcpConfig needs exactly one of file or inline")
}

// hostTool is an extraTools entry as a port Tool that answers with its output.
function hostTool(et) {
  const output = et.output
  return {
    name: et.name,
    description: et.description,
    inputSchema: et.inputSchema,
    source: "custom",
    async execute() {
      return { output, isError: false }
    },
  }
}

// statusOf copies the port's status map; a missing one stays null (SPEC.md §3).
function statusOf(status) {
  return status && typeof status === "object" ? { ...status } : null
}

async function opToolkitCreate(args, timing) {
  const opts = { builtins: false }
  const input = mcpInput(args.mcpConfig)
  if (input !== undefined) opts.mcpConfig = input
  if (Array.isArray(args.extraTools)) opts.extraTools = args.extraTools.map(hostTool)
  if (timing) opts.signal = timing.signal
  const tk = await tn.createToolkit(opts)
  if (!tk) return { tools: null, status: null } // SPEC.md §3: null stays null, no handle kept
  const old = toolkits.get(args.handle)
  if (old) await old.close().catch(() => {})
  toolkits.set(args.handle, tk)
  const list = tk.tools()
  return { tools: Array.isArray(list) ? list.map((t) => t.name) : null, status: statusOf(tk.mcpStatus()) }
}

async function opToolkitClose(args) {
  const tk = lookupToolkit(args.toolkit)
  if (tk) await tk.close()
  toolkits.delete(args.toolkit)
  return {}
}

async function opMcpLoad(args, timing) {
  const input = mcpInput(args.mcpConfig)
  let src
  if (args.context === false) {
    if (timing) throw unsupported("adapter: the no-context load takes no cancelAfterMs/deadlineMs")
    src = await tn.loadMcp(input)
  } else {
    src = await tn.loadMcp(input, { signal: timing ? timing.signal : new AbortController().signal })
  }
  if (!src) return { tools: null, status: null } // SPEC.md §3: null stays null
  try {
    return { tools: Array.isArray(src.tools) ? src.tools.map((t) => t.name) : null, status: statusOf(src.status) }
  } finally {
    await src.close()
  }
}

async function opMcpList(args, timing) {
  const input = mcpInput(args.mcpConfig)
  let inv
  if (args.context === false) {
    if (timing) throw unsupported("adapter: a listing without a signal takes no cancelAfterMs/deadlineMs")
    inv = await tn.listMcpTools(input)
  } else {
    inv = await tn.listMcpTools(input, { signal: timing ? timing.signal : new AbortController().signal })
  }
  if (!inv || !inv.tools) return { tools: null, status: inv ? statusOf(inv.status) : null }
  const tools = {}
  for (const [server, list] of Object.entries(inv.tools)) {
    tools[server] = (list ?? []).map((t) => ({
      name: t.name,
      description: t.description ?? null,
      inputSchema: t.inputSchema ?? null,
    }))
  }
  return { tools, status: statusOf(inv.status) }
}

const HANDLERS = {
  hello: opHello,
  "client.create": opClientCreate,
  "client.run": opClientRun,
  "client.ask": opClientAsk,
  "store.get": opStoreGet,
  "store.save": opStoreSave,
  "store.identity": opStoreIdentity,
  "toolkit.create": opToolkitCreate,
  "toolkit.close": opToolkitClose,
  "mcp.load": opMcpLoad,
  "mcp.list": opMcpList,
  shutdown: () => ({}),
}
const TIMED = new Set(["toolkit.create", "mcp.load", "mcp.list"])

// --- warnings ---------------------------------------------------------------------------------
// capture points console.warn / console.error at a collector for one request (teed to stderr)
// and returns the lines and a restore function.
function capture() {
  const lines = []
  const sink = (...a) => {
    const text = format(...a)
    writeErr(text + "\n")
    for (const l of text.split("\n")) {
      const line = l.replace(/\r$/, "")
      if (line.trim() !== "") lines.push(line)
    }
  }
  console.warn = sink
  console.error = sink
  return {
    lines,
    restore() {
      console.warn = realWarn
      console.error = realError
    },
  }
}

// --- the loop ---------------------------------------------------------------------------------
function send(resp) {
  let line
  try {
    line = JSON.stringify(resp)
  } catch (e) {
    line = JSON.stringify({
      id: resp.id, ok: false, warnings: resp.warnings ?? [],
      error: { kind: "failed", message: `adapter: cannot encode result: ${errMessage(e)}` },
    })
  }
  writeOut(line + "\n")
}

async function handle(req) {
  const args = req.args && typeof req.args === "object" ? req.args : {}
  const cap = capture()
  const timing = TIMED.has(req.op) ? makeTiming(args) : undefined
  let resp
  try {
    const fn = HANDLERS[req.op]
    if (!fn) throw unsupported(`adapter: unknown op ${JSON.stringify(req.op)}`)
    checkArgs(req.op, args)
    let result = await fn(args, timing)
    if (result === undefined || result === null) result = {}
    resp = { id: req.id, ok: true, result, warnings: cap.lines }
  } catch (e) {
    resp = {
      id: req.id, ok: false,
      error: { kind: errorKind(req.op, e), message: errMessage(e), ...(errorType(e) ? { type: errorType(e) } : {}) },
      warnings: cap.lines,
    }
  } finally {
    timing?.stop()
    cap.restore()
  }
  if (TIMED.has(req.op)) {
    // Node reports an unhandled rejection only after the microtask queue drains: give a
    // rejection the library left behind the chance to surface on the call that caused it.
    await new Promise((r) => setTimeout(r, 30))
  }
  resp.warnings = resp.warnings.slice()
  if (crashes.length > 0) resp.crashes = crashes.splice(0)
  return resp
}

async function closeAll(ms) {
  const work = Promise.all([...toolkits.values()].map((tk) => tk.close().catch(() => {})))
  toolkits.clear()
  await Promise.race([work, new Promise((r) => setTimeout(r, ms).unref())])
}

let stopping = false
async function serveLine(line) {
  if (stopping || line.trim() === "") return
  let req
  try {
    req = JSON.parse(line)
  } catch (e) {
    log(`skipping malformed line: ${errMessage(e)}`)
    return
  }
  if (!req || typeof req !== "object" || !Number.isInteger(req.id) || req.id < 1) {
    log(`skipping line without a valid id: ${line.trim()}`)
    return
  }
  const resp = await handle(req)
  send(resp)
  if (req.op === "shutdown") {
    stopping = true
    await closeAll(2000)
    process.exit(0)
  }
}

let chain = Promise.resolve()
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false })
rl.on("line", (line) => {
  chain = chain.then(() => serveLine(line)).catch((e) => log(`request loop: ${e && e.stack ? e.stack : String(e)}`))
})
rl.on("close", () => {
  chain = chain.then(async () => {
    if (stopping) return
    stopping = true
    await closeAll(2000)
    process.exit(0)
  })
})
