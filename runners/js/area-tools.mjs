// Area tools: toolkit.create, toolkit.close, toolkit.describe, tool.execute, adapters and
// sanitize, and the `tool` host function behind extraTools (host and native kinds).
import { applyToolkitExtensions, declareSlots, lookupToolkit, register, slot, toolkits, unsupported } from "./kit.mjs"
import { namesOf, statusOf } from "./area-mcp.mjs"

let tn // the port's exports, set by install

function hostTool(toolkit, t) {
  return {
    name: t.name, description: t.description, inputSchema: t.inputSchema, source: "custom",
    async execute(input) {
      const { value } = slot("contract.tool", { toolkit, name: t.name, input: input ?? {} })
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
    const { value } = slot("contract.tool", { toolkit, name: t.name, input })
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

// order: after llm, transport and store, so contract.tool follows their slots in hello's list.
export const order = 40

export function install(port) {
  tn = port
  declareSlots("contract.tool")

  // Timed: an mcpConfig is loaded under the caller's signal, as mcp.load is.
  register("toolkit.create", async (args, timing) => {
    // builtins as given (absent: off; builtinsDefault: no option at all, the library's default)
    const opts = args.builtinsDefault ? {} : { builtins: args.builtins ?? false }
    if (args.extraTools) opts.extraTools = args.extraTools.map((t) => extraTool(args.handle, t))
    // then the other areas' options (mcpConfig, the skill options, tools appended after these)
    applyToolkitExtensions(args, opts)
    if (timing) opts.signal = timing.signal
    const tk = await tn.createToolkit(opts)
    if (!tk) return { tools: null, status: null } // null stays null, no handle kept
    await toolkits.get(args.handle)?.close().catch(() => {})
    toolkits.set(args.handle, tk)
    return { tools: namesOf(tk.tools()), status: statusOf(tk.mcpStatus()) }
  }, { timed: true, rank: 7 })

  register("toolkit.close", async (args) => {
    await lookupToolkit(args.toolkit).close()
    toolkits.delete(args.toolkit)
    return {}
  }, { rank: 8 })

  register("toolkit.describe", (args) => {
    const tk = lookupToolkit(args.toolkit)
    const list = tk.tools()
    const tools = Array.isArray(list)
      ? list.map((t) => ({ name: t.name, description: t.description ?? null, inputSchema: t.inputSchema ?? null, source: t.source ?? null }))
      : null
    return { tools, status: statusOf(tk.mcpStatus()) }
  }, { rank: 11 })

  // args absent: undefined is passed; null: null (the port's `args ?? {}` decides)
  register("tool.execute", async (args) => {
    const res = (await lookupToolkit(args.toolkit).execute(args.name, args.args)) ?? {}
    const out = { output: res.output ?? null, isError: res.isError ?? null }
    if (res.metadata !== undefined) out.metadata = res.metadata
    return out
  }, { rank: 12 })

  register("adapters", (args) => {
    const tk = lookupToolkit(args.toolkit)
    return { openai: tk.toOpenAI(), anthropic: tk.toAnthropic(), gemini: tk.toGemini() }
  }, { rank: 13 })

  register("sanitize", (args) => {
    if (typeof tn.sanitize !== "function") throw unsupported("adapter: this JS port exports no sanitize")
    return { value: tn.sanitize(args.value) }
  }, { rank: 14 })
}
