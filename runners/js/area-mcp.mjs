// Area mcp: mcp.load and mcp.list, toolkit.create's mcpConfig, and the status handling
// toolkit.create shares. Both ops are timed (the kit's caller signal and its 30 ms wait for late
// rejections).
import { extendToolkit, register, unsupported } from "./kit.mjs"

// mcpInput is what the port's input parameter takes: the path for {file}, the object for {inline}.
export const mcpInput = (cfg) => (cfg === undefined ? undefined : cfg.file ?? cfg.inline)
// statusOf copies the port's status map; a missing one stays null (SPEC.md §3).
export const statusOf = (status) => (status && typeof status === "object" ? { ...status } : null)
export const namesOf = (list) => (Array.isArray(list) ? list.map((t) => t.name) : null)

// mcpCall calls a port entry point with the caller's signal; `context: false` calls it
// without one, which cannot take cancelAfterMs/deadlineMs.
function mcpCall(fn, args, timing, what) {
  const input = mcpInput(args.mcpConfig)
  if (args.context !== false) return fn(input, { signal: timing ? timing.signal : new AbortController().signal })
  if (timing) throw unsupported(`adapter: ${what} takes no cancelAfterMs/deadlineMs`)
  return fn(input)
}

export const order = 50

export function install(tn) {
  extendToolkit((args, opts) => {
    if (args.mcpConfig !== undefined) opts.mcpConfig = mcpInput(args.mcpConfig)
  })

  // The adapter closes the source before it answers (SPEC.md §3).
  register("mcp.load", async (args, timing) => {
    const src = await mcpCall(tn.loadMcp, args, timing, "the no-context load")
    if (!src) return { tools: null, status: null }
    try {
      return { tools: namesOf(src.tools), status: statusOf(src.status) }
    } finally {
      await src.close()
    }
  }, { timed: true, rank: 9 })

  register("mcp.list", async (args, timing) => {
    const inv = await mcpCall(tn.listMcpTools, args, timing, "a listing without a signal")
    if (!inv || !inv.tools) return { tools: null, status: inv ? statusOf(inv.status) : null }
    const tools = {}
    for (const [server, list] of Object.entries(inv.tools)) {
      tools[server] = (list ?? []).map((t) => ({ name: t.name, description: t.description ?? null, inputSchema: t.inputSchema ?? null }))
    }
    return { tools, status: statusOf(inv.status) }
  }, { timed: true, rank: 10 })
}
