// Finds the toolnexus JS port for runners/js/prepare and checks that it imports.
//   node locate.mjs --dir <js folder of a checkout>   the folder's package.json entry
//   node locate.mjs --installed                       an installed `toolnexus` package
// On success prints the absolute path of the port's entry file as the only stdout line.
// On failure prints "not present: <reason>" on stderr and exits 3.
import { existsSync, readFileSync, statSync } from "node:fs"
import path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

// Whatever the port prints while it is imported must not reach stdout.
const writeOut = process.stdout.write.bind(process.stdout)
process.stdout.write = process.stderr.write.bind(process.stderr)
console.log = console.error
console.info = console.error

const NAMES = ["createClient", "createToolkit", "loadMcp", "listMcpTools", "InMemoryConversationStore"]

function notPresent(reason) {
  process.stderr.write(`not present: ${reason}\n`)
  process.exit(3)
}

function oneLine(e) {
  const msg = e && typeof e === "object" && "message" in e ? String(e.message) : String(e)
  return msg.split("\n").map((l) => l.trim()).filter(Boolean).join(" | ")
}

// pickTarget resolves a package.json "exports" value for an ESM importer on node.
function pickTarget(exp) {
  if (typeof exp === "string") return exp
  if (Array.isArray(exp)) {
    for (const e of exp) {
      const t = pickTarget(e)
      if (t) return t
    }
    return undefined
  }
  if (exp && typeof exp === "object") {
    const keys = Object.keys(exp)
    if (keys.length && keys.every((k) => k.startsWith("."))) return exp["."] === undefined ? undefined : pickTarget(exp["."])
    for (const cond of ["node", "import", "default"]) {
      if (cond in exp) {
        const t = pickTarget(exp[cond])
        if (t) return t
      }
    }
  }
  return undefined
}

function entryOfDir(dirArg) {
  const dir = path.resolve(dirArg)
  const build = `cd ${dir} && npm install && npm run build`
  if (!existsSync(dir) || !statSync(dir).isDirectory()) notPresent(`TOOLNEXUS_JS=${dirArg} is not a directory`)
  const pkgPath = path.join(dir, "package.json")
  if (!existsSync(pkgPath)) notPresent(`TOOLNEXUS_JS=${dir} has no package.json (point it at the js/ folder of a toolnexus checkout)`)
  let pkg
  try {
    pkg = JSON.parse(readFileSync(pkgPath, "utf8"))
  } catch (e) {
    notPresent(`TOOLNEXUS_JS=${dir}: package.json does not parse: ${oneLine(e)}`)
  }
  if (pkg.name !== "toolnexus") notPresent(`TOOLNEXUS_JS=${dir}: package.json names "${pkg.name}", not "toolnexus"`)
  const target = (pkg.exports !== undefined ? pickTarget(pkg.exports) : undefined) ?? pkg.main ?? "index.js"
  const entry = path.resolve(dir, target)
  if (!existsSync(path.join(dir, "dist"))) notPresent(`TOOLNEXUS_JS=${dir} has no dist/ (the port is not built); build it: ${build}`)
  if (!existsSync(entry)) notPresent(`TOOLNEXUS_JS=${dir}: the package entry ${target} is missing (the port is not built); build it: ${build}`)
  if (!existsSync(path.join(dir, "node_modules"))) notPresent(`TOOLNEXUS_JS=${dir} has no node_modules (its dependencies are not installed); run: ${build}`)
  return { entry, hint: `; rebuild it: ${build}` }
}

function entryInstalled() {
  try {
    return { entry: fileURLToPath(import.meta.resolve("toolnexus")), hint: "" }
  } catch {
    notPresent("toolnexus is not on this machine's npm registry; set TOOLNEXUS_JS=<checkout>/js with a built dist/ (npm install && npm run build there)")
  }
}

const [mode, arg] = process.argv.slice(2)
let found
if (mode === "--dir" && arg) found = entryOfDir(arg)
else if (mode === "--installed") found = entryInstalled()
else notPresent("locate.mjs: usage: --dir <path> | --installed")

let mod
try {
  mod = await import(pathToFileURL(found.entry).href)
} catch (e) {
  notPresent(`the toolnexus JS port at ${found.entry} does not import: ${oneLine(e)}${found.hint}`)
}
const missing = NAMES.filter((n) => typeof mod[n] !== "function")
if (missing.length) notPresent(`the toolnexus JS port at ${found.entry} does not export ${missing.join(", ")}`)
writeOut(found.entry + "\n")
process.exit(0)
