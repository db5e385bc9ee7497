// Kit: the adapter's own answers and the relay of what the port threw (SPEC.md §3 `error`).
// The adapter never judges an error: the runner does, with errors.json.

export const stack = (e) => (e && e.stack ? e.stack : String(e))

// AdapterError is the adapter's own answer: `unsupported` where the port's API cannot express
// an op or argument, `failed` for an adapter fault. Everything else the port threw is relayed.
export class AdapterError extends Error {
  constructor(kind, message) {
    super(message)
    this.kind = kind
  }
}
export const unsupported = (msg) => new AdapterError("unsupported", msg)
export const fault = (msg) => new AdapterError("failed", msg)

export const errMessage = (e) => String(e && typeof e === "object" && e.message !== undefined ? e.message : e)
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

export function relayError(e) {
  if (e instanceof AdapterError) return { kind: e.kind, message: e.message }
  return { message: errMessage(e), type: errType(e), chain: chainOf(e) }
}
