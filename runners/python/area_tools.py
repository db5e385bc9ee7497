"""The tools area: toolkit.create and toolkit.close, toolkit.describe, tool.execute, adapters and
sanitize, and the `tool` host function behind a toolkit's extra tools. A toolkit lives in an
owner task that creates and closes it: the MCP SDK's anyio transports must be exited in the task
that entered them, in LIFO order."""
from __future__ import annotations

import asyncio
import copy
from typing import Any, Optional

import toolnexus as tn

import area_suspension
import kit
from kit import AdapterError


def host_tool(toolkit: str, spec: dict[str, Any]) -> Any:
    async def execute(args: Optional[dict[str, Any]] = None, ctx: Any = None) -> Any:
        output = kit.slot("contract.tool", {"toolkit": toolkit, "name": spec["name"], "input": args})
        return tn.ToolResult(output=output, is_error=False)
    return tn.Tool(name=spec["name"], description=spec["description"],
                   input_schema=copy.deepcopy(spec["inputSchema"]), source="custom", execute=execute)


def native_tool(toolkit: str, spec: dict[str, Any]) -> Any:
    """define_tool(fn, ...): the port maps what fn returns or raises. native.py calls
    fn(**dict(args or {})) (plus ctx= only when fn names a ctx/context parameter), so fn takes
    **kwargs alone: it then receives exactly the args' keys and values, relayed as input."""
    returns = spec.get("returns", "string")

    def fn(**kwargs: Any) -> Any:  # a plain def: the port runs it in a worker thread
        value = kit.slot("contract.tool", {"toolkit": toolkit, "name": spec["name"], "input": kwargs})
        if returns == "result":  # {output, isError, metadata?} -> the port's ToolResult
            extra = {"metadata": value["metadata"]} if "metadata" in value else {}
            return tn.ToolResult(output=value["output"], is_error=value["isError"], **extra)
        return value  # string: as answered; object: the decoded JSON value (dict, list, ...)
    kw = {"input_schema": copy.deepcopy(spec["inputSchema"])} if "inputSchema" in spec else {}
    return tn.define_tool(fn, name=spec["name"], description=spec["description"], **kw)


HTTP_FIELDS = (("method", "method"), ("url", "url"), ("headers", "headers"), ("query", "query"),
               ("body", "body"), ("inputSchema", "input_schema"), ("resultMode", "result_mode"))


def http_tool(spec: dict[str, Any]) -> Any:
    """http_tool(name=, description=, ...) with only the fields given; timeout in seconds."""
    kw = {name: copy.deepcopy(spec[k]) for k, name in HTTP_FIELDS if k in spec}
    if "timeoutMs" in spec:
        kw["timeout"] = spec["timeoutMs"] / 1000.0
    return tn.http_tool(name=spec["name"], description=spec["description"], **kw)


def extra_tool(toolkit: str, spec: dict[str, Any]) -> Any:
    kind = spec.get("kind", "host")
    return native_tool(toolkit, spec) if kind == "native" else http_tool(spec) if kind == "http" else host_tool(toolkit, spec)


class ToolkitHolder:
    """Owns one toolkit in its own task: created there, closed there (see the module doc). It is
    what kit.toolkits holds: the kit reads .toolkit and closes every holder at exit."""

    def __init__(self, kwargs: dict[str, Any]) -> None:
        self.toolkit: Any = None
        self.ready: asyncio.Future = asyncio.get_running_loop().create_future()  # None, or the create's error
        self.close_req = asyncio.Event()
        self.task = asyncio.ensure_future(self._own(kwargs))
        # a close that outlived its wait must not surface later as an unretrieved exception
        self.task.add_done_callback(lambda t: t.cancelled() or t.exception())

    async def _own(self, kwargs: dict[str, Any]) -> None:
        try:
            self.toolkit = await tn.create_toolkit(**kwargs)
        except BaseException as e:  # noqa: BLE001 — boxed, re-raised in the request's task
            self.ready.set_result(e)
            return
        self.ready.set_result(None)
        try:
            await self.close_req.wait()
        finally:
            if self.toolkit is not None:
                await self.toolkit.close()

    async def close(self, timeout: Optional[float]) -> None:
        self.close_req.set()
        done, _ = await asyncio.wait({self.task}, timeout=timeout)
        if not done:
            raise AdapterError("failed", f"adapter: toolkit close did not finish within {timeout:g}s")
        self.task.result()


async def op_toolkit_create(args: dict[str, Any]) -> dict[str, Any]:
    handle = args["handle"]
    if handle in kit.toolkits:  # the runner names every object once
        raise AdapterError("failed", f"adapter: toolkit handle {handle!r} is in use")
    # builtins as given (absent: off; builtinsDefault: no option at all, the library's default)
    kw: dict[str, Any] = {} if args.get("builtinsDefault") else {"builtins": args.get("builtins", False)}
    if args.get("extraTools"):
        kw["extra_tools"] = [extra_tool(handle, t) for t in args["extraTools"]]
    kit.toolkit_options(handle, args, kw)  # then the other areas': mcp_config, skills, tools after these
    with kit.cancel_handle(args) as cancel:
        if cancel is not None:
            kw["cancel"] = cancel
        holder = ToolkitHolder(kw)
        try:
            err = await asyncio.shield(holder.ready)
        except asyncio.CancelledError:
            holder.task.cancel()
            raise
    if err is not None:
        raise err
    if holder.toolkit is None:
        return {"tools": None, "status": None}
    kit.toolkits[handle] = holder
    return {"tools": [t.name for t in holder.toolkit.tools()], "status": dict(holder.toolkit.mcp_status())}


async def op_toolkit_close(args: dict[str, Any]) -> dict[str, Any]:
    holder = kit.toolkits.lookup(args["toolkit"])
    del kit.toolkits[args["toolkit"]]  # gone even when its close fails
    await holder.close(None)
    return {}


async def op_toolkit_describe(args: dict[str, Any]) -> dict[str, Any]:
    tk = kit.toolkit_of(args)
    tools = tk.tools()
    return {"tools": None if tools is None else [
        {"name": t.name, "description": t.description, "inputSchema": t.input_schema, "source": t.source}
        for t in tools], "status": dict(tk.mcp_status())}


async def op_tool_execute(args: dict[str, Any]) -> dict[str, Any]:
    # args absent or null: None, the port's default (execute(name, args=None))
    res = await kit.toolkit_of(args).execute(args["name"], copy.deepcopy(args.get("args")))
    out = {"output": res.output, "isError": res.is_error}
    if res.metadata is not None:  # None: the port gave none
        out["metadata"] = area_suspension.metadata_json(res.metadata)
    return out


async def op_adapters(args: dict[str, Any]) -> dict[str, Any]:
    tk = kit.toolkit_of(args)
    return {"openai": tk.to_openai(), "anthropic": tk.to_anthropic(), "gemini": tk.to_gemini()}


async def op_sanitize(args: dict[str, Any]) -> dict[str, Any]:
    if not callable(getattr(tn, "sanitize", None)):
        raise AdapterError("unsupported", "adapter: this toolnexus exports no sanitize")
    return {"value": tn.sanitize(args["value"])}


# order 60: contract.tool follows the transport area's slot in hello's list.
kit.register({"toolkit.create": op_toolkit_create, "toolkit.close": op_toolkit_close,
              "toolkit.describe": op_toolkit_describe, "tool.execute": op_tool_execute,
              "adapters": op_adapters, "sanitize": op_sanitize}, slots=("contract.tool",), order=60,
             ranks={"toolkit.create": 7, "toolkit.close": 8, "toolkit.describe": 11, "tool.execute": 12,
                    "adapters": 13, "sanitize": 14})
