// toolnexus conformance adapter for the JS port, a relay of SPEC.md §3:
//   node adapter.mjs <absolute path of the port's entry file>
// One JSON request per line on stdin, served one at a time; one response line each on stdout.
// Host functions call back to the runner, which decides what they do and judges errors
// (errors.json). Only the port's public API is used: createClient, createToolkit, loadMcp,
// listMcpTools, InMemoryConversationStore, defineTool, httpTool, sanitize and the Client /
// Toolkit methods.
import { readFileSync, readSync, writeSync } from "node:fs"
import path from "node:path"
import { createInterface } from "node:readline"
import { pathToFileURL } from "node:url"
import { format } from "node:util"

// --- stdout: protocol lines only ---------------------------------------------------------------
// Whatever the port prints goes to stderr. Protocol lines are written with writeSync so a
// callback line is on the wire before the stub blocks for its answer.
const writeErr = process.stderr.write.bind(process.stderr)
process.stdout.write = (chunk, ...rest) => writeErr(chunk, ...rest)
const realWarn = console.warn.bind(console)
const realError = console.error.bind(console)
console.log = (...a) => writeErr(format(...a) + "\n")
console.info = console.debug = console.log

const log = (msg) => writeErr(`[adapter] ${msg}\n`)
const stack = (e) => (e && e.stack ? e.stack : String(e))

// nap sleeps the thread for 1 ms: Node made fd 1 non-blocking when process.stdout was touched,
// and a pipe the runner hands over may be non-blocking too, so EAGAIN means "try again".
const napCell = new Int32Array(new SharedArrayBuffer(4))
const nap = () => Atomics.wait(napCell, 0, 0, 1)

function writeLine(obj) {
  const buf = Buffer.from(JSON.stringify(obj) + "\n")
  for (let off = 0; off < buf.length; ) {
    try {
      off += writeSync(1, buf, off)
    } catch (e) {
      if (e.code !== "EAGAIN") throw e
      nap()
    }
  }
}

// AdapterError is the adapter's own answer: `unsupported` where the port's API cannot express
// an op or argument, `failed` for an adapter fault. Everything else the port threw is relayed.
class AdapterError extends Error {
  constructor(kind, message) {
    super(message)
    this.kind = kind
  }
}
const unsupported = (msg) => new AdapterError("unsupported", msg)
const fault = (msg) => new AdapterError("failed", msg)

// A rejection nobody handles, or an exception nobody catches, would end a default Node 20
// process: the adapter keeps running and reports it in the next response's "crashes".
const crashes = []
for (const [event, what] of [["unhandledRejection", "unhandled rejection"], ["uncaughtException", "uncaught exception"]]) {
  process.on(event, (e) => {
    crashes.push(`${what}: ${stack(e)}`)
    log(crashes.at(-1))
  })
}

// --- the port ----------------------------------------------------------------------------------
const entry = process.argv[2] ?? ""
let tn
try {
  tn = await import(pathToFileURL(path.resolve(entry)).href)
} catch (e) {
  log(`cannot import the toolnexus JS port at ${JSON.stringify(entry)}: ${stack(e)}`)
  process.exit(3)
}

// portPackage finds the nearest package.json above the entry that has a name (the port's own).
function portPackage() {
  for (let dir = path.dirname(path.resolve(entry)); ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"))
      if (pkg && pkg.name) return { pkg, dir }
    } catch {} // none here, or unreadable: keep walking
    if (path.dirname(dir) === dir) return { pkg: {}, dir: "" }
  }
}

// --- host functions call back ------------------------------------------------------------------
const CALLBACK_FD = Number(process.env.CONFORMANCE_CALLBACK_FD ?? 3)
let callbackSeq = 0
let unread = Buffer.alloc(0) // bytes read from the pipe past the last answer's newline

// readAnswer blocks until one whole line arrives on the callback pipe. Blocking is the point:
// the port calls its body transform synchronously, so the answer cannot wait for an event.
function readAnswer() {
  const chunk = Buffer.alloc(64 * 1024)
  while (!unread.includes(10)) {
    let n = -1
    try {
      n = readSync(CALLBACK_FD, chunk, 0, chunk.length, null)
    } catch (e) {
      if (e.code !== "EAGAIN") throw fault(`adapter: cannot read the callback pipe (fd ${CALLBACK_FD}): ${e.message}`)
      nap()
    }
    if (n === 0) throw fault(`adapter: the callback pipe (fd ${CALLBACK_FD}) closed`)
    if (n > 0) unread = Buffer.concat([unread, chunk.subarray(0, n)])
  }
  const nl = unread.indexOf(10)
  const line = unread.subarray(0, nl).toString("utf8")
  unread = unread.subarray(nl + 1)
  return line
}

// callback is the one stub behind every host function. Node runs it to completion on one
// thread (write, then a blocking read), so callbacks are serialised without a lock. An
// `ok: false` answer throws its error text, as a host function that fails would.
function callback(fn, args) {
  const n = ++callbackSeq
  writeLine({ callback: n, fn, args })
  const answer = JSON.parse(readAnswer())
  if (answer.callback !== n) throw fault(`adapter: callback ${n} got the answer to ${answer.callback}`)
  if (!answer.ok) throw new Error(answer.error)
  return answer
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v)

// editTo makes target equal value while keeping every object, and every array of the same
// length, found at the same key or index in both: a host's in-place edit then lands in the
// very objects the port handed over (A4.4), which is what the scenario is about.
function editTo(target, value) {
  if (Array.isArray(target) && Array.isArray(value) && target.length === value.length) {
    value.forEach((v, i) => (target[i] = editTo(target[i], v)))
    return target
  }
  if (isObject(target) && isObject(value)) {
    for (const k of Object.keys(target)) if (!Object.hasOwn(value, k)) delete target[k]
    for (const [k, v] of Object.entries(value)) target[k] = editTo(target[k], v)
    return target
  }
  return value
}

function bodyTransformStub(client) {
  return (body) => {
    const { value, inPlace } = callback("bodyTransform", { client, body })
    return inPlace && isObject(value) ? editTo(body, value) : value ?? null
  }
}

function beforeLLMStub(client) {
  return (ev) => {
    const { value } = callback("beforeLLM", { client, turn: ev.turn, messages: ev.messages, tools: ev.tools ?? null })
    return value ?? undefined // null: no override
  }
}

// fetchStub is the recording HTTP client: it reports each request, then sends it as the
// default fetch would.
function fetchStub(client) {
  return (input, init) => {
    const url = typeof input === "string" ? input : input?.url ?? String(input)
    callback("http", { client, method: init?.method ?? input?.method ?? "GET", url })
    return globalThis.fetch(input, init)
  }
}

function hostTool(toolkit, t) {
  return {
    name: t.name, description: t.description, inputSchema: t.inputSchema, source: "custom",
    async execute(input) {
      const { value } = callback("tool", { toolkit, name: t.name, input: input ?? {} })
      return { output: typeof value === "string" ? value : JSON.stringify(value ?? null), isError: false }
    },
  }
}

// nativeTool is the port's defineTool: its run(args) calls back `tool` and returns the answer's
// value as it came (string or any JSON value), or for returns: "result" the ToolResult object
// {output, isError, metadata?}. An ok:false answer throws, and the port maps the throw.
function nativeTool(toolkit, t) {
  const opts = { name: t.name, description: t.description }
  if (t.inputSchema !== undefined) opts.inputSchema = t.inputSchema
  opts.run = (input) => {
    const { value } = callback("tool", { toolkit, name: t.name, input })
    if (t.returns !== "result") return value
    return { output: value.output, isError: value.isError, ...("metadata" in value ? { metadata: value.metadata } : {}) }
  }
  return tn.defineTool(opts)
}

// httpTool is the port's httpTool with only the fields given (timeout in ms, as the port takes it).
function httpTool(t) {
  const opts = { name: t.name, description: t.description }
  for (const k of ["method", "url", "headers", "query", "body", "inputSchema", "resultMode"]) if (t[k] !== undefined) opts[k] = t[k]
  if (t.timeoutMs !== undefined) opts.timeout = t.timeoutMs
  return tn.httpTool(opts)
}

const extraTool = (toolkit, t) => (t.kind === "native" ? nativeTool(toolkit, t) : t.kind === "http" ? httpTool(t) : hostTool(toolkit, t))

// --- relayed errors ----------------------------------------------------------------------------
const errMessage = (e) => String(e && typeof e === "object" && e.message !== undefined ? e.message : e)
// errType is the error's name (AbortError, TimeoutError, TypeError), else its constructor's.
const errType = (e) => (e && typeof e === "object" ? String(e.name ?? e.constructor?.name ?? "Object") : typeof e)

// protoNames lists the constructors up e's prototype chain (DOMException, Error), Object left out.
function protoNames(e, type) {
  const names = []
  for (let p = Object.getPrototypeOf(e); p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    const name = p.constructor?.name
    if (name && name !== type && !names.includes(name)) names.push(name)
  }
  return names
}

// chainOf lists e, then its cause and an AggregateError's errors, depth first (each once).
function chainOf(e, out = [], seen = new Set()) {
  if (e === undefined || e === null || seen.has(e)) return out
  const type = errType(e)
  const isObj = typeof e === "object"
  out.push({ type, is: isObj ? protoNames(e, type) : [], message: errMessage(e) })
  if (!isObj) return out
  seen.add(e)
  chainOf(e.cause, out, seen)
  for (const x of Array.isArray(e.errors) ? e.errors : []) chainOf(x, out, seen)
  return out
}

function relayError(e) {
  if (e instanceof AdapterError) return { kind: e.kind, message: e.message }
  return { message: errMessage(e), type: errType(e), chain: chainOf(e) }
}

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

// --- handles -----------------------------------------------------------------------------------
const clients = new Map() // handle -> {client, hostStore}
const toolkits = new Map() // handle -> Toolkit

function lookup(map, what, handle) {
  if (!map.has(handle)) throw fault(`adapter: unknown ${what} handle ${JSON.stringify(handle)}`)
  return map.get(handle)
}
const lookupClient = (handle) => lookup(clients, "client", handle)
const lookupToolkit = (handle) => lookup(toolkits, "toolkit", handle)

// withRun resolves the handles, runs fn and reports what the port returned (missing stays
// null). With no toolkit named it passes an empty one, as the port's run needs a Toolkit.
async function withRun(args, fn) {
  const { client } = lookupClient(args.client)
  const empty = args.toolkit === undefined ? await tn.createToolkit({ builtins: false }) : undefined
  try {
    const res = (await fn(client, empty ?? lookupToolkit(args.toolkit))) ?? {}
    const toolCalls = Array.isArray(res.toolCalls) ? res.toolCalls.map((c) => c.name) : null
    // RunResult.toolCalls as given; an undefined metadata drops out of the JSON line
    const calls = Array.isArray(res.toolCalls)
      ? res.toolCalls.map((c) => ({ name: c.name, args: c.args, output: c.output, isError: c.isError, metadata: c.metadata }))
      : null
    return { text: res.text ?? null, turns: res.turns ?? null, toolCalls, calls }
  } finally {
    if (empty) await empty.close().catch(() => {})
  }
}

// drainStream consumes the port's async generator up to its `done` event.
async function drainStream(gen) {
  for await (const ev of gen) if (ev && ev.type === "done") return ev.result ?? null
  throw fault("adapter: the stream ended without a done event")
}

function storeOf(handle) {
  const store = lookupClient(handle).client.conversationStore()
  if (!store) throw fault("adapter: conversationStore() returned nothing")
  return store
}

// mcpInput is what the port's input parameter takes: the path for {file}, the object for {inline}.
const mcpInput = (cfg) => (cfg === undefined ? undefined : cfg.file ?? cfg.inline)
// statusOf copies the port's status map; a missing one stays null (SPEC.md §3).
const statusOf = (status) => (status && typeof status === "object" ? { ...status } : null)
const namesOf = (list) => (Array.isArray(list) ? list.map((t) => t.name) : null)

// mcpCall calls a port entry point with the caller's signal; `context: false` calls it
// without one, which cannot take cancelAfterMs/deadlineMs.
function mcpCall(fn, args, timing, what) {
  const input = mcpInput(args.mcpConfig)
  if (args.context !== false) return fn(input, { signal: timing ? timing.signal : new AbortController().signal })
  if (timing) throw unsupported(`adapter: ${what} takes no cancelAfterMs/deadlineMs`)
  return fn(input)
}

// --- ops ---------------------------------------------------------------------------------------
const HANDLERS = {
  hello() {
    const { pkg, dir } = portPackage()
    const version = `${pkg.version ?? "unknown"}${dir ? ` (${dir})` : ""}`
    const ops = Object.keys(HANDLERS)
    return { port: "js", library: pkg.name ?? "toolnexus", version, runtime: `node ${process.version}`, ops }
  },

  "client.create"(args) {
    // The port takes a fetch function: a request timeout would live inside the host's fetch,
    // so there is no client setting to hand over. The message is the one expectations pin.
    if (args.httpTimeoutMs !== undefined) throw unsupported('adapter: httpTimeoutMs: the JS port takes a fetch function, so a timeout would live in the host fetch')
    const opts = { baseUrl: args.baseUrl, style: args.style, model: args.model, apiKey: args.apiKey }
    for (const k of ["systemPrompt", "maxTurns", "requestParams"]) if (args[k] !== undefined) opts[k] = args[k]
    if (args.bodyTransform) opts.bodyTransform = bodyTransformStub(args.handle)
    if (args.beforeLLM) opts.hooks = { beforeLLM: beforeLLMStub(args.handle) }
    if (args.httpClient === "recording") opts.fetch = fetchStub(args.handle)
    const hostStore = args.store === "host" ? new tn.InMemoryConversationStore() : undefined
    if (hostStore) opts.store = hostStore
    const client = tn.createClient(opts)
    if (!client) throw fault("adapter: createClient returned nothing")
    clients.set(args.handle, { client, hostStore })
    return {}
  },

  "client.run"(args) {
    if (args.stream && args.history) throw unsupported("adapter: the JS port's stream() takes no history")
    return withRun(args, (client, toolkit) => {
      if (args.stream) return drainStream(client.stream(args.prompt, { toolkit }))
      return client.run(args.prompt, args.history ? { toolkit, history: args.history } : { toolkit })
    })
  },

  "client.ask": (args) => withRun(args, (client, toolkit) => client.ask(args.prompt, { toolkit, id: args.id })),

  async "store.get"(args) {
    return { messages: (await storeOf(args.client).get(args.id ?? "")) ?? null }
  },

  async "store.save"(args) {
    await storeOf(args.client).save(args.id, args.messages)
    return {}
  },

  "store.identity"(args) {
    const { client, hostStore } = lookupClient(args.client)
    return { same: hostStore !== undefined && client.conversationStore() === hostStore }
  },

  async "toolkit.create"(args, timing) {
    const opts = { builtins: args.builtins === true }
    if (args.mcpConfig !== undefined) opts.mcpConfig = mcpInput(args.mcpConfig)
    if (args.extraTools) opts.extraTools = args.extraTools.map((t) => extraTool(args.handle, t))
    if (timing) opts.signal = timing.signal
    const tk = await tn.createToolkit(opts)
    if (!tk) return { tools: null, status: null } // null stays null, no handle kept
    await toolkits.get(args.handle)?.close().catch(() => {})
    toolkits.set(args.handle, tk)
    return { tools: namesOf(tk.tools()), status: statusOf(tk.mcpStatus()) }
  },

  async "toolkit.close"(args) {
    await lookupToolkit(args.toolkit).close()
    toolkits.delete(args.toolkit)
    return {}
  },

  // The adapter closes the source before it answers (SPEC.md §3).
  async "mcp.load"(args, timing) {
    const src = await mcpCall(tn.loadMcp, args, timing, "the no-context load")
    if (!src) return { tools: null, status: null }
    try {
      return { tools: namesOf(src.tools), status: statusOf(src.status) }
    } finally {
      await src.close()
    }
  },

  async "mcp.list"(args, timing) {
    const inv = await mcpCall(tn.listMcpTools, args, timing, "a listing without a signal")
    if (!inv || !inv.tools) return { tools: null, status: inv ? statusOf(inv.status) : null }
    const tools = {}
    for (const [server, list] of Object.entries(inv.tools)) {
      tools[server] = (list ?? []).map((t) => ({ name: t.name, description: t.description ?? null, inputSchema: t.inputSchema ?? null }))
    }
    return { tools, status: statusOf(inv.status) }
  },

  "toolkit.describe"(args) {
    const tk = lookupToolkit(args.toolkit)
    const list = tk.tools()
    const tools = Array.isArray(list)
      ? list.map((t) => ({ name: t.name, description: t.description ?? null, inputSchema: t.inputSchema ?? null, source: t.source ?? null }))
      : null
    return { tools, status: statusOf(tk.mcpStatus()) }
  },

  // args absent: undefined is passed; null: null (the port's `args ?? {}` decides)
  async "tool.execute"(args) {
    const res = (await lookupToolkit(args.toolkit).execute(args.name, args.args)) ?? {}
    const out = { output: res.output ?? null, isError: res.isError ?? null }
    if (res.metadata !== undefined) out.metadata = res.metadata
    return out
  },

  adapters(args) {
    const tk = lookupToolkit(args.toolkit)
    return { openai: tk.toOpenAI(), anthropic: tk.toAnthropic(), gemini: tk.toGemini() }
  },

  sanitize(args) {
    if (typeof tn.sanitize !== "function") throw unsupported("adapter: this JS port exports no sanitize")
    return { value: tn.sanitize(args.value) }
  },

  shutdown: () => ({}),
}
const TIMED = new Set(["toolkit.create", "mcp.load", "mcp.list"])

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
  const warnings = capture()
  const timing = TIMED.has(req.op) ? makeTiming(args) : undefined
  let resp
  try {
    const fn = HANDLERS[req.op]
    if (!fn) throw unsupported(`adapter: unknown op ${JSON.stringify(req.op)}`)
    resp = { id: req.id, ok: true, result: (await fn(args, timing)) ?? {} }
  } catch (e) {
    resp = { id: req.id, ok: false, error: relayError(e) }
  } finally {
    timing?.stop()
    console.warn = realWarn
    console.error = realError
  }
  // Node reports an unhandled rejection only after the microtask queue drains: give one the
  // library left behind the chance to surface on the MCP call that caused it.
  if (TIMED.has(req.op)) await new Promise((r) => setTimeout(r, 30))
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

let queue = Promise.resolve()
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false })
rl.on("line", (line) => {
  queue = queue.then(() => serveLine(line)).catch((e) => log(`request loop: ${stack(e)}`))
})
rl.on("close", () => {
  queue = queue.then(() => (stopping ? undefined : stop()))
})
