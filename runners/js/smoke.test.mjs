// Offline smoke test of the JS adapter against a real port checkout (no harness needed):
//   TOOLNEXUS_JS=<checkout>/js node --test runners/js/smoke.test.mjs
// It starts a fake LLM and a never-answering TCP server on 127.0.0.1, drives adapter.mjs over
// its stdin/stdout, and checks every stdout line is a protocol response. Skipped without
// TOOLNEXUS_JS.
import { test, before, after } from "node:test"
import assert from "node:assert/strict"
import { spawn, execFileSync } from "node:child_process"
import http from "node:http"
import net from "node:net"
import { createInterface } from "node:readline"
import path from "node:path"
import { fileURLToPath } from "node:url"

const here = path.dirname(fileURLToPath(import.meta.url))
const skip = !process.env.TOOLNEXUS_JS && "TOOLNEXUS_JS is not set"

let llm, hang, hangSockets = [], child, lines, nextId = 1, stderr = ""
const bodies = []

function call(op, args) {
  const id = nextId++
  child.stdin.write(JSON.stringify(args === undefined ? { id, op } : { id, op, args }) + "\n")
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no answer to ${op} in 15 s; stderr:\n${stderr}`)), 15000)
    lines.once("line", (line) => {
      clearTimeout(t)
      const resp = JSON.parse(line) // a non-JSON stdout line fails the test here
      assert.equal(resp.id, id)
      assert.ok(Array.isArray(resp.warnings), "warnings is always an array")
      resolve(resp)
    })
  })
}

before(async () => {
  if (skip) return
  llm = http.createServer((req, res) => {
    let b = ""
    req.on("data", (c) => (b += c))
    req.on("end", () => {
      bodies.push(JSON.parse(b))
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify({ choices: [{ message: { role: "assistant", content: "ok" } }] }))
    })
  })
  await new Promise((r) => llm.listen(0, "127.0.0.1", r))
  hang = net.createServer((s) => hangSockets.push(s)) // accepts, never answers
  await new Promise((r) => hang.listen(0, "127.0.0.1", r))
  const argv = JSON.parse(execFileSync("bash", [path.join(here, "prepare")], { encoding: "utf8", timeout: 120000 }).trim())
  child = spawn(argv[0], argv.slice(1), { stdio: ["pipe", "pipe", "pipe"] })
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

test("hello names the port and every op", { skip }, async () => {
  const r = await call("hello")
  assert.equal(r.ok, true)
  assert.equal(r.result.port, "js")
  assert.equal(r.result.library, "toolnexus")
  assert.match(r.result.runtime, /^node v\d+/)
  assert.equal(r.result.ops.length, 12)
})

test("a shaped run records hook, transform, fetch and the port's warnings", { skip }, async () => {
  const base = `http://127.0.0.1:${llm.address().port}`
  let r = await call("client.create", {
    handle: "c", baseUrl: base, style: "openai", model: "m", apiKey: "k",
    requestParams: { stream: true, temperature: 0.5 },
    bodyTransform: { delete: ["temperature"], set: { injected: "yes" }, appendToLastUser: " /nothink" },
    beforeLLM: { setLastUserContent: "rewritten", tools: [] },
    httpClient: "recording", store: "host",
  })
  assert.equal(r.ok, true)
  r = await call("toolkit.create", { handle: "t", extraTools: [{ name: "echo", description: "d", inputSchema: { type: "object" }, output: "x" }] })
  assert.deepEqual(r.result, { tools: ["echo"], status: {} })
  bodies.length = 0
  r = await call("client.run", { client: "c", toolkit: "t", prompt: "hi" })
  assert.equal(r.ok, true, JSON.stringify(r))
  assert.equal(r.result.text, "ok")
  assert.equal(r.result.httpRequests, 1)
  assert.deepEqual(r.result.hookSaw, [{ turn: 0, messageCount: 1, toolCount: 1 }])
  assert.equal(r.result.transformSaw[0].temperature, 0.5)
  assert.ok(r.warnings.some((w) => w.includes('"stream"')), "the forbidden-key warning is captured")
  assert.equal(bodies.length, 1)
  assert.equal(bodies[0].injected, "yes")
  assert.equal("temperature" in bodies[0], false)
  assert.equal("tools" in bodies[0], false)
  assert.equal(bodies[0].messages.at(-1).content, "rewritten /nothink")
  r = await call("store.identity", { client: "c" })
  assert.deepEqual(r.result, { same: true })
  r = await call("toolkit.close", { toolkit: "t" })
  assert.equal(r.ok, true)
})

test("error kinds: invalid, cancelled, deadline, unsupported", { skip }, async () => {
  const stuck = { inline: { mcpServers: { stuck: { url: `http://127.0.0.1:${hang.address().port}/mcp` } } } }
  let r = await call("mcp.load", { mcpConfig: { file: "/nonexistent/mcp.json" } })
  assert.equal(r.error.kind, "invalid")
  const t0 = Date.now()
  r = await call("mcp.load", { mcpConfig: stuck, cancelAfterMs: 100 })
  assert.equal(r.error?.kind, "cancelled", JSON.stringify(r))
  assert.ok(Date.now() - t0 < 2000)
  r = await call("toolkit.create", { handle: "t2", mcpConfig: stuck, deadlineMs: 50 })
  assert.equal(r.error?.kind, "deadline", JSON.stringify(r))
  r = await call("mcp.list", { mcpConfig: stuck, cancelAfterMs: 100 })
  assert.equal(r.error?.kind, "cancelled", JSON.stringify(r))
  r = await call("client.run", { client: "c", prompt: "hi", stream: true, history: [] })
  assert.equal(r.error?.kind, "unsupported")
})

test("shutdown answers and exits", { skip }, async () => {
  const exited = new Promise((r) => child.once("exit", r))
  const r = await call("shutdown", {})
  assert.deepEqual(r.result, {})
  const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r("timeout"), 5000))])
  assert.equal(code, 0)
})
