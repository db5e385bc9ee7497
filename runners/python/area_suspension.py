"""The suspension area (upstream SPEC §10): a wait_for that calls back suspension.waitFor, and
tool literals whose execute calls back suspension.tool and returns what the runner answered,
either a suspension (is_error True, metadata["pending"] the port's Request: §10's documented
shape, which the port's pending_of reads) or a plain result.

The port's Request and Answer are dataclasses without a serialiser of their own: on the wire
they carry §10's key names, an optional key the port left None left out. The other areas report
a run's pending request, a stream's pending event and a result's metadata through the helpers
here."""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, Optional

import toolnexus as tn

import kit
from kit import AdapterError

REQUEST_KEYS = ("id", "kind", "prompt", "url", "data", "expiresAt")
ANSWER_KEYS = ("id", "ok", "data", "reason")


def _port_class(name: str) -> Any:
    cls = getattr(tn, name, None)
    if cls is None:
        raise AdapterError("unsupported", f"adapter: this toolnexus exports no {name} (§10 suspension)")
    return cls


def _keys_of(obj: Any, keys: tuple[str, ...]) -> Any:
    """A Request or Answer in §10's keys, None fields left out; anything else (a dict the port
    kept under metadata.pending, None) as it is."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {k: getattr(obj, k) for k in keys if getattr(obj, k, None) is not None}
    return obj


def request_json(req: Any) -> Any:
    return _keys_of(req, REQUEST_KEYS)


def answer_json(answer: Any) -> Any:
    return _keys_of(answer, ANSWER_KEYS)


def metadata_json(metadata: Any) -> Any:
    """A ToolResult's metadata for a report: a Request under "pending" in §10's keys."""
    if isinstance(metadata, dict) and "pending" in metadata:
        return {**metadata, "pending": request_json(metadata["pending"])}
    return metadata


def request_of(v: dict[str, Any]) -> Any:
    """The runner's Request as the port's, with exactly the keys given."""
    return _port_class("Request")(**{k: v[k] for k in REQUEST_KEYS if k in v})


def answer_of(v: Any) -> Any:
    """The runner's Answer as the port's (its keys as given); null stays None."""
    if v is None:
        return None
    if not isinstance(v, dict):
        raise AdapterError("failed", f"adapter: suspension.waitFor answered {v!r}, not an Answer object")
    return _port_class("Answer")(**{k: v[k] for k in ANSWER_KEYS if k in v})


def wait_for_stub(client: str) -> Callable[[Any], Any]:
    def wait_for(request: Any) -> Any:  # a plain def: the port awaits only what is awaitable
        return answer_of(kit.slot("suspension.waitFor", {"client": client, "request": request_json(request)}))
    return wait_for


def suspending_tool(toolkit: str, spec: dict[str, Any]) -> Any:
    """A Tool literal (source custom): it relays its input and the context's answer, and returns
    the runner's suspension or result."""
    name = spec["name"]

    async def execute(args: Optional[dict[str, Any]] = None, ctx: Any = None) -> Any:
        call: dict[str, Any] = {"toolkit": toolkit, "name": name, "input": args}
        answer = getattr(ctx, "answer", None)
        if answer is not None:
            call["answer"] = answer_json(answer)
        v = kit.slot("suspension.tool", call)
        if not isinstance(v, dict):
            raise AdapterError("failed", f"adapter: suspension.tool answered {v!r}, not an object")
        if v.get("pending") is not None:
            return tn.ToolResult(output=v.get("output", ""), is_error=True, metadata={"pending": request_of(v["pending"])})
        return tn.ToolResult(output=v.get("output", ""), is_error=bool(v.get("isError")))
    return tn.Tool(name=name, description=spec["description"], input_schema=spec.get("inputSchema"),
                   source="custom", execute=execute)


def client_option(handle: str, args: dict[str, Any], kw: dict[str, Any]) -> None:
    if args.get("waitFor"):
        kw["wait_for"] = wait_for_stub(handle)


def toolkit_option(handle: str, args: dict[str, Any], kw: dict[str, Any]) -> None:
    # after the tools area's own extra_tools, as the reference adapter adds them
    if args.get("suspendingTools"):
        kw["extra_tools"] = kw.get("extra_tools", []) + [suspending_tool(handle, t) for t in args["suspendingTools"]]


# order 10, first: its slots lead hello's list, as they did when the llm area's import made this
# area register before any other.
kit.register({}, slots=("suspension.waitFor", "suspension.tool"), client_option=client_option,
             toolkit_option=toolkit_option, order=10)
