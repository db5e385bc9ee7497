// Offline smoke test of the JS adapter against a real port checkout (no harness needed):
//   TOOLNEXUS_JS=<checkout>/js node --test runners/js/smoke.test.mjs
// It starts a fake LLM and a never-answering TCP server on 127.0.0.1, drives adapter.mjs over
// stdin/stdout, answers its callbacks on fd 3 as the runner would, and checks every stdout
// line is a protocol line. The relayed errors are judged with errors.json by a small copy of
// the runner's rule matcher. Skipped without TOOLNEXUS_JS.
import { test, before, after } from "node:test"
import assert from "node:assert/strict"
import { spawn, execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import http from "node:http"
import net from "node:net"
import { createInterface } from "node:readline"
import path from "node:path"
import { fileURLToPath } from "node:url"

const here = path.dirname(fileURLToPath(import.meta.url))
const skip = !process.env.TOOLNEXUS_JS && "TOOLNEXUS_JS is not set"

let llm, hang, hangSockets = [], child, lines, nextId = 1, stderr = ""
const bodies = [] // what the fake LLM received
const replies = [] // what it answers next (openai messages); "ok" text when empty
let answer = () => null // the runner's side of a callback: (fn, args) -> answer fields
let callbacks = [] // every callback line of the current request

const text = (t) => ({ role: "assistant", content: t })
const toolCall = (name, args) => ({
  role: "assistant", content: null,
  tool_calls: [{ id: "call_1", type: "function", function: { name, arguments: JSON.stringify(args) } }],
})

// call sends one request, answers its callbacks with answer() and resolves its response.
function call(op, args) {
  const id = nextId++
  callbacks = []
  child.stdin.write(JSON.stringify(args === undefined ? { id, op } : { id, op, args }) + "\n")
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no answer to ${op} in 15 s; stderr:\n${stderr}`)), 15000)
    const onLine = (line) => {
      const msg = JSON.parse(line) // a non-JSON stdout line fails the test here
      if (msg.callback !== undefined) {
        callbacks.push(msg)
        const a = answer(msg.fn, msg.args) ?? { ok: true, value: null }
        child.stdio[3].write(JSON.stringify({ callback: msg.callback, ...a }) + "\n")
        return
      }
      clearTimeout(t)
      lines.off("line", onLine)
      assert.equal(msg.id, id)
      assert.ok(Array.isArray(msg.warnings), "warnings is always an array")
      resolve(msg)
    }
    lines.on("line", onLine)
  })
}

// kindOf judges a relayed error with errors.json as the runner does (RE2's leading (?i) is
// the only flag the table uses).
const rules = JSON.parse(readFileSync(path.join(here, "errors.json"), "utf8")).rules
function kindOf(op, error) {
  if (error.kind) return error.kind
  const re = (s) => (s.startsWith("(?i)") ? new RegExp(s.slice(4), "i") : new RegExp(s))
  const hit = (r, e) => (!r.is || r.is.includes(e.type) || (e.is ?? []).some((n) => r.is.includes(n))) &&
    (!r.message || re(r.message).test(e.message))
  const rule = rules.find((r) => (!r.ops || r.ops.includes(op)) && error.chain.some((e) => hit(r, e)))
  return rule ? rule.kind : "failed"
}

before(async () => {
  if (skip) return
  llm = http.createServer((req, res) => {
    let b = ""
    req.on("data", (c) => (b += c))
    req.on("end", () => {
      if (req.method === "GET") { // the http tool's endpoint: JSON naming the path and a header
        res.writeHead(200, { "content-type": "application/json" })
        return res.end(JSON.stringify({ path: req.url, auth: req.headers["x-auth"] ?? null }))
      }
      bodies.push(JSON.parse(b))
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify({ choices: [{ message: replies.shift() ?? text("ok") }] }))
    })
  })
  await new Promise((r) => llm.listen(0, "127.0.0.1", r))
  hang = net.createServer((s) => hangSockets.push(s)) // accepts, never answers
  await new Promise((r) => hang.listen(0, "127.0.0.1", r))
  const argv = JSON.parse(execFileSync("bash", [path.join(here, "prepare")], { encoding: "utf8", timeout: 120000 }).trim())
  child = spawn(argv[0], argv.slice(1), {
    stdio: ["pipe", "pipe", "pipe", "pipe"],
    env: { ...process.env, CONFORMANCE_CALLBACK_FD: "3", TNX_PARENT: "1", TNX_SECRET: "s3cr3t-9f2c" }, // as the runner sets
  })
  child.stderr.on("data", (d) => (stderr += d))
  lines = createInterface({ input: child.stdout })
})

after(async () => {
  if (skip) return
  child.kill()
  hangSockets.forEach((s) => s.destroy())
  llm.closeAllConnections()
  await Promise.all([new Promise((r) => llm.close(r)), new Promise((r) => hang.close(r))])
})

const base = () => `http://127.0.0.1:${llm.address().port}`

test("hello names the port and every op", { skip }, async () => {
  const r = await call("hello")
  assert.equal(r.ok, true)
  assert.equal(r.result.port, "js")
  assert.equal(r.result.library, "toolnexus")
  assert.match(r.result.runtime, /^node v\d+/)
  assert.equal(r.result.ops.length, 16)
})

test("hook, transform and fetch call back in pipeline order; their answers reach the wire", { skip }, async () => {
  let r = await call("client.create", {
    handle: "c", baseUrl: base(), style: "openai", model: "m", apiKey: "k",
    requestParams: { stream: true, temperature: 0.5 },
    bodyTransform: true, beforeLLM: true, httpClient: "recording", store: "host",
  })
  assert.equal(r.ok, true, JSON.stringify(r))
  r = await call("toolkit.create", { handle: "t", extraTools: [{ name: "echo", description: "d", inputSchema: { type: "object" } }] })
  assert.deepEqual(r.result, { tools: ["echo"], status: {} })
  answer = (fn, args) => {
    if (fn === "beforeLLM") return { ok: true, value: { messages: [{ role: "user", content: "rewritten" }], tools: [] } }
    if (fn === "bodyTransform") {
      const { temperature, ...rest } = args.body
      return { ok: true, value: { ...rest, injected: "yes" }, inPlace: false }
    }
  }
  bodies.length = 0
  r = await call("client.run", { client: "c", toolkit: "t", prompt: "hi" })
  assert.deepEqual(r.result, { text: "ok", turns: 1, toolCalls: [], calls: [] })
  assert.deepEqual(callbacks.map((c) => c.fn), ["beforeLLM", "bodyTransform", "http"])
  const [hook, transform, fetch] = callbacks.map((c) => c.args)
  assert.deepEqual([hook.client, hook.turn, hook.messages.at(-1).content, hook.tools.length], ["c", 0, "hi", 1])
  assert.equal(transform.body.temperature, 0.5)
  assert.deepEqual([fetch.method, fetch.url], ["POST", `${base()}/chat/completions`])
  assert.ok(r.warnings.some((w) => w.includes('"stream"')), "the forbidden-key warning is captured")
  assert.deepEqual(bodies, [{ model: "m", messages: [{ role: "user", content: "rewritten" }], injected: "yes" }])
  r = await call("store.identity", { client: "c" })
  assert.deepEqual(r.result, { same: true })
})

test("a host tool calls back with its input; an ok:false answer throws from execute", { skip }, async () => {
  await call("client.create", { handle: "plain", baseUrl: base(), style: "openai", model: "m", apiKey: "k" })
  answer = (fn) => (fn === "tool" ? { ok: true, value: "echo-output" } : null)
  replies.push(toolCall("echo", { text: "x" }), text("done"))
  bodies.length = 0
  let r = await call("client.run", { client: "plain", toolkit: "t", prompt: "use it" })
  assert.deepEqual(r.result, { text: "done", turns: 2, toolCalls: ["echo"], calls: [{ name: "echo", args: { text: "x" }, output: "echo-output", isError: false }] })
  assert.deepEqual(callbacks.map((c) => c.args), [{ toolkit: "t", name: "echo", input: { text: "x" } }])
  assert.equal(bodies[1].messages.at(-1).content, "echo-output")
  answer = () => ({ ok: false, error: "host: refused" })
  replies.push(toolCall("echo", { text: "y" }))
  r = await call("client.run", { client: "plain", toolkit: "t", prompt: "use it" })
  // The JS port lets a tool's rejection end the run.
  assert.equal(r.error?.message, "host: refused", JSON.stringify(r))
})

test("wave 1: native and http tools, describe, execute, adapters, sanitize", { skip }, async () => {
  const echo = { name: "echo", description: "d", inputSchema: { type: "object" } }
  const extraTools = [
    { name: "n_str", description: "s", kind: "native" },
    { name: "n_obj", description: "o", kind: "native", returns: "object", inputSchema: { type: "object", properties: { q: { type: "string" } } } },
    { name: "n_res", description: "r", kind: "native", returns: "result" },
    { name: "n_fail", description: "f", kind: "native" },
    { name: "h.get", description: "h", kind: "http", method: "GET", url: `${base()}/h/{id}`, headers: { "X-Auth": "${TNX_SECRET}" }, timeoutMs: 5000 },
    echo,
  ]
  const values = { n_str: "plain", n_obj: { b: 1, a: [true, null] }, n_res: { output: "r", isError: true, metadata: { k: 1 } } }
  answer = (fn, args) => (args.name === "n_fail" ? { ok: false, error: "host: native refused" } : { ok: true, value: values[args.name] ?? "echoed" })
  let r = await call("toolkit.create", { handle: "w1", extraTools })
  assert.deepEqual(r.result, { tools: ["n_str", "n_obj", "n_res", "n_fail", "h.get", "echo"], status: {} }, JSON.stringify(r))
  r = await call("toolkit.describe", { toolkit: "w1" })
  assert.deepEqual(r.result.tools.map((t) => [t.name, t.source]),
    [["n_str", "native"], ["n_obj", "native"], ["n_res", "native"], ["n_fail", "native"], ["h.get", "http"], ["echo", "custom"]])
  assert.deepEqual(r.result.tools[0].inputSchema, { type: "object", properties: {}, additionalProperties: false })
  assert.deepEqual(r.result.tools[1].inputSchema, extraTools[1].inputSchema)
  r = await call("tool.execute", { toolkit: "w1", name: "n_str", args: { x: 1 } })
  assert.deepEqual(r.result, { output: "plain", isError: false })
  assert.deepEqual(callbacks.map((c) => c.args), [{ toolkit: "w1", name: "n_str", input: { x: 1 } }])
  r = await call("tool.execute", { toolkit: "w1", name: "n_obj" })
  assert.deepEqual(r.result, { output: '{"b":1,"a":[true,null]}', isError: false })
  assert.deepEqual(callbacks.map((c) => c.args.input), [{}], "no args: the port's args ?? {}")
  r = await call("tool.execute", { toolkit: "w1", name: "n_res", args: null })
  assert.deepEqual(r.result, { output: "r", isError: true, metadata: { k: 1 } })
  r = await call("tool.execute", { toolkit: "w1", name: "n_fail", args: {} })
  assert.deepEqual(r.result, { output: "host: native refused", isError: true })
  r = await call("tool.execute", { toolkit: "w1", name: "h.get", args: { id: "a b", n: 2 } })
  assert.deepEqual([r.result.isError, r.result.metadata], [false, { status: 200 }], JSON.stringify(r))
  assert.deepEqual(JSON.parse(r.result.output), { path: "/h/a%20b?n=2", auth: "s3cr3t-9f2c" })
  r = await call("tool.execute", { toolkit: "w1", name: "nope" })
  assert.deepEqual(r.result, { output: "Unknown tool: nope", isError: true })
  r = await call("adapters", { toolkit: "w1" })
  assert.deepEqual(r.result.openai.at(-1), { type: "function", function: { name: "echo", description: "d", parameters: { type: "object" } } })
  assert.deepEqual(r.result.anthropic.at(-1), { name: "echo", description: "d", input_schema: { type: "object" } })
  assert.equal(r.result.gemini.length, 1)
  assert.equal(r.result.gemini[0].functionDeclarations.length, 6)
  r = await call("sanitize", { value: "a.b c🚀-_9" })
  assert.deepEqual(r.result, { value: "a_b_c__-_9" }, "the port's regex has no u flag: a surrogate pair is two characters")
  r = await call("toolkit.close", { toolkit: "w1" })
  assert.equal(r.ok, true)
})

test("an in-place answer edits the objects the port handed over", { skip }, async () => {
  await call("client.create", { handle: "ip", baseUrl: base(), style: "openai", model: "m", apiKey: "k", bodyTransform: true })
  answer = (fn, args) => {
    const body = structuredClone(args.body)
    body.messages.at(-1).content += " /nothink"
    return { ok: true, value: body, inPlace: true }
  }
  const r = await call("client.ask", { client: "ip", prompt: "hi", id: "conv" })
  assert.equal(r.ok, true, JSON.stringify(r))
  assert.equal(bodies.at(-1).messages.at(-1).content, "hi /nothink")
  // The JS port hands the transform its live transcript, so the edit reaches the store (A4.4).
  const got = await call("store.get", { client: "ip", id: "conv" })
  assert.equal(got.result.messages[0].content, "hi /nothink")
})

test("errors are relayed with their chain, and errors.json judges them as before", { skip }, async () => {
  const stuck = { inline: { mcpServers: { stuck: { url: `http://127.0.0.1:${hang.address().port}/mcp` } } } }
  let r = await call("mcp.load", { mcpConfig: { file: "/nonexistent/mcp.json" } })
  assert.equal(r.error.kind, undefined)
  assert.equal(r.error.chain[0].message, r.error.message)
  assert.equal(kindOf("mcp.load", r.error), "invalid", JSON.stringify(r.error))
  const t0 = Date.now()
  r = await call("mcp.load", { mcpConfig: stuck, cancelAfterMs: 100 })
  assert.equal(r.error?.type, "AbortError", JSON.stringify(r))
  assert.deepEqual(r.error.chain[0].is, ["DOMException", "Error"])
  assert.equal(kindOf("mcp.load", r.error), "cancelled")
  assert.ok(Date.now() - t0 < 2000)
  r = await call("toolkit.create", { handle: "t2", mcpConfig: stuck, deadlineMs: 50 })
  assert.equal(kindOf("toolkit.create", r.error), "deadline", JSON.stringify(r))
  r = await call("mcp.list", { mcpConfig: stuck, cancelAfterMs: 0 })
  assert.equal(kindOf("mcp.list", r.error), "cancelled", JSON.stringify(r))
  await call("client.create", { handle: "nokey", baseUrl: base(), style: "openai", model: "m", apiKey: "" })
  const env = { ...process.env }
  r = await call("client.run", { client: "nokey", prompt: "hi" })
  if (!env.OPENAI_API_KEY && !env.OPENROUTER_API_KEY && !env.ANTHROPIC_API_KEY) assert.equal(kindOf("client.run", r.error), "invalid")
  r = await call("client.run", { client: "c", prompt: "hi", stream: true, history: [] })
  assert.deepEqual(r.error, { kind: "unsupported", message: "adapter: the JS port's stream() takes no history" })
  r = await call("client.create", { handle: "x", baseUrl: base(), style: "openai", model: "m", apiKey: "k", httpClient: "recording", httpTimeoutMs: 300 })
  assert.equal(r.error?.kind, "unsupported")
})

test("shutdown answers and exits", { skip }, async () => {
  const exited = new Promise((r) => child.once("exit", r))
  const r = await call("shutdown", {})
  assert.deepEqual(r.result, {})
  const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r("timeout"), 5000))])
  assert.equal(code, 0)
})
