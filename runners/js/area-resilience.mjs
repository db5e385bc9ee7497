// Area resilience: retries, retryBaseMs and timeoutMs as given, and an onError stub that calls
// back resilience.onError (upstream SPEC §8 Resilience). The run's cancel is the llm area's
// (cancelAfterMs -> the run's AbortSignal).
import { declareSlots, extendClient, slot } from "./kit.mjs"

// The port's ErrorInfo as given: status on a non-ok response, error on a transport throw.
function infoArgs(client, info) {
  const out = { client, attempt: info.attempt, retryable: info.retryable }
  if (info.status !== undefined && info.status !== null) out.status = info.status
  if (info.error !== undefined && info.error !== null) out.error = String(info.error?.message ?? info.error)
  return out
}

export const order = 80

export function install() {
  declareSlots("resilience.onError")
  extendClient((args, opts) => {
    for (const k of ["retries", "retryBaseMs", "timeoutMs"]) if (args[k] !== undefined) opts[k] = args[k]
    if (args.onError) opts.onError = (info) => slot("resilience.onError", infoArgs(args.handle, info)).value
    return {}
  })
}
