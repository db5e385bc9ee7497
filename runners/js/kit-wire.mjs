// Kit: the two pipes of SPEC.md §3. stdout carries protocol lines only (responses and
// callbacks); fd 3 (CONFORMANCE_CALLBACK_FD) carries the runner's answers to host functions.
// Every host function of every area is the one stub here, slot(name, args).
import { readSync, writeSync } from "node:fs"
import { format } from "node:util"
import { fault } from "./kit-errors.mjs"

// --- stdout: protocol lines only ---------------------------------------------------------------
// Whatever the port prints goes to stderr. Protocol lines are written with writeSync so a
// callback line is on the wire before the stub blocks for its answer. This runs when the kit
// is first imported, before the entry imports the port.
export const writeErr = process.stderr.write.bind(process.stderr)
process.stdout.write = (chunk, ...rest) => writeErr(chunk, ...rest)
console.log = (...a) => writeErr(format(...a) + "\n")
console.info = console.debug = console.log

export const log = (msg) => writeErr(`[adapter] ${msg}\n`)

// nap sleeps the thread for 1 ms: Node made fd 1 non-blocking when process.stdout was touched,
// and a pipe the runner hands over may be non-blocking too, so EAGAIN means "try again".
const napCell = new Int32Array(new SharedArrayBuffer(4))
const nap = () => Atomics.wait(napCell, 0, 0, 1)

export function writeLine(obj) {
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

// The host-function names ("<area>.<name>") the areas install, in the order they declared
// them. A slot not declared is an adapter fault, so this list, which hello sends, is the whole truth.
const slotNames = []
export function declareSlots(...names) {
  for (const n of names) if (!slotNames.includes(n)) slotNames.push(n)
}
export const installedSlots = () => slotNames.slice()

// slot is the one stub behind every host function. Node runs it to completion on one thread
// (write, then a blocking read), so callbacks are serialised without a lock. The runner's
// answer returns a value, edits the argument in place ({value, inPlace: true}) or raises (its
// text thrown, as a host function that fails would); this port has no suspension, so a
// suspend is the adapter's fault.
export function slot(name, args) {
  if (!slotNames.includes(name)) throw fault(`adapter: host function ${JSON.stringify(name)} was never declared`)
  const n = ++callbackSeq
  writeLine({ callback: n, fn: name, args })
  const answer = JSON.parse(readAnswer())
  if (answer.callback !== n) throw fault(`adapter: callback ${n} got the answer to ${answer.callback}`)
  if (Object.hasOwn(answer, "raise")) throw new Error(answer.raise)
  if (Object.hasOwn(answer, "suspend")) throw fault(`adapter: the runner suspended ${name}, which this adapter cannot`)
  if (Object.hasOwn(answer, "edit")) return { value: answer.edit, inPlace: true }
  return { value: answer.return, inPlace: false }
}

export const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v)

// editTo makes target equal value while keeping every object, and every array of the same
// length, found at the same key or index in both: a host's in-place edit then lands in the
// very objects the port handed over (A4.4), which is what the scenario is about.
export function editTo(target, value) {
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
