"""The resilience area: retries, retry_base_ms and timeout_ms as given, and an on_error stub that
calls back resilience.onError (upstream SPEC §8 Resilience). The run's cancel is the llm area's
(cancelAfterMs -> the port's asyncio.Event)."""

from typing import Any, Callable

import kit


def on_error_stub(client: str) -> Callable[[dict[str, Any]], Any]:
    def on_error(info: dict[str, Any]) -> Any:
        # the port's info dict as given: status on an HTTP failure, error on a transport one
        args: dict[str, Any] = {"client": client, "attempt": info.get("attempt"), "retryable": info.get("retryable")}
        if info.get("status") is not None:
            args["status"] = info["status"]
        if info.get("error") is not None:
            args["error"] = str(info["error"])
        return kit.slot("resilience.onError", args)  # "retry" or "fail", the port's own literals
    return on_error


def client_option(handle: str, args: dict[str, Any], kw: dict[str, Any]) -> None:
    for key, name in (("retries", "retries"), ("retryBaseMs", "retry_base_ms"), ("timeoutMs", "timeout_ms")):
        if key in args:
            kw[name] = args[key]
    if args.get("onError"):
        kw["on_error"] = on_error_stub(handle)


kit.register({}, slots=("resilience.onError",), client_option=client_option, order=90)
