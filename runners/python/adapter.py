#!/usr/bin/env python3
"""toolnexus conformance adapter for the Python port, a relay (SPEC.md §3): one JSON request
per stdin line, one response per stdout line; host functions call back to the runner; errors
are relayed with their chain, for the runner to judge (errors.json). One asyncio loop serves
the process. A toolkit lives in an owner task that creates and closes it: the MCP SDK's anyio
transports must be exited in the task that entered them, in LIFO order."""
from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import copy
import dataclasses
import importlib.metadata
import io
import json
import os
import platform
import sys
import threading
from typing import Any, Callable, Optional

# Keep a private handle on the real stdout and point fd 1 (so sys.stdout and any child that
# inherits it) at stderr: a stray print can never corrupt the protocol stream.
_OUT_FD = os.dup(1)
os.dup2(2, 1)
_REAL_STDERR = sys.stderr
_WRITE_LOCK = threading.Lock()  # callbacks come from the port's worker threads too
_CRASHES: list[str] = []  # what the port raised outside any call's result, for the next response

try:
    import toolnexus as tn
except Exception as _e:  # noqa: BLE001
    print(f"toolnexus adapter: cannot import toolnexus: {_e!r}", file=_REAL_STDERR, flush=True)
    sys.exit(3)


def log(msg: str) -> None:
    with contextlib.suppress(Exception):  # a closed stderr must not break a request
        print(f"[adapter] {msg}", file=_REAL_STDERR, flush=True)


def _jsonable(o: Any) -> Any:
    # a ContentPart in a message is a dataclass; anything else unexpected is shown, not lost
    return dataclasses.asdict(o) if dataclasses.is_dataclass(o) and not isinstance(o, type) else repr(o)


def write_line(obj: dict[str, Any]) -> None:
    data = (json.dumps(obj, ensure_ascii=False, default=_jsonable) + "\n").encode("utf-8")
    with _WRITE_LOCK:
        view = memoryview(data)
        while view:
            view = view[os.write(_OUT_FD, view):]


class AdapterError(Exception):
    """The adapter's own answer, kind "unsupported" or "failed" (SPEC.md §3)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def take_crashes() -> list[str]:
    out = _CRASHES[:]
    del _CRASHES[:len(out)]  # one appended by another thread meanwhile waits for the next response
    return out


def on_loop_exception(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    exc = context.get("exception")
    _CRASHES.append(text := f"asyncio: {context.get('message', '')}: {message_of(exc) if exc else ''}".rstrip(": "))
    log(text)


def on_thread_exception(args: Any) -> None:
    name = args.thread.name if args.thread else "?"
    _CRASHES.append(text := f"uncaught exception in thread {name}: {args.exc_type.__name__}: {args.exc_value}")
    log(text)


class StderrTee:
    """sys.stderr during one request: everything reaches the real stderr, and the lines that
    start with "[toolnexus]" (the port's print(..., file=sys.stderr)) become warnings."""

    def __init__(self) -> None:
        self.text = io.StringIO()  # one write is one C call: safe from the port's threads

    def write(self, s: Any) -> int:
        s = s if isinstance(s, str) else str(s)
        with contextlib.suppress(Exception):  # a closed stderr must not break the port's print
            _REAL_STDERR.write(s)
        return self.text.write(s)

    def warnings(self) -> list[str]:
        return [ln.rstrip("\r") for ln in self.text.getvalue().split("\n") if ln.startswith("[toolnexus]")]

    def __getattr__(self, name: str) -> Any:  # flush, fileno, encoding, ...
        return getattr(_REAL_STDERR, name)


# --- host functions call back ------------------------------------------------------------------
_CB_FD = int(os.environ.get("CONFORMANCE_CALLBACK_FD") or -1)
if _CB_FD >= 0:
    os.set_inheritable(_CB_FD, False)  # MCP stdio children must not hold the pipe
_CB_LOCK = threading.Lock()  # one callback at a time per adapter
_cb = {"n": 0, "unread": b""}


def call_back(fn: str, args: dict[str, Any]) -> tuple[Any, bool]:
    """Writes a callback line and reads the runner's answer from the callback pipe in this
    thread. That blocks it (the asyncio loop too, when the port calls a host function there),
    which is fine: the runner answers at once. Returns (value, inPlace); ok: false raises."""
    if _CB_FD < 0:
        raise AdapterError("failed", "adapter: no callback pipe (CONFORMANCE_CALLBACK_FD is unset)")
    with _CB_LOCK:
        _cb["n"] += 1
        n = _cb["n"]
        write_line({"callback": n, "fn": fn, "args": args})
        while b"\n" not in _cb["unread"]:
            chunk = os.read(_CB_FD, 65536)
            if not chunk:
                raise AdapterError("failed", f"adapter: the callback pipe closed before answering {fn} #{n}")
            _cb["unread"] += chunk
        line, _cb["unread"] = _cb["unread"].split(b"\n", 1)
    answer = json.loads(line)
    if answer.get("callback") != n:
        raise AdapterError("failed", f"adapter: callback #{n} ({fn}) was answered as #{answer.get('callback')}")
    if not answer.get("ok"):
        raise RuntimeError(answer.get("error", "host function failed"))
    return answer.get("value"), bool(answer.get("inPlace"))


def edit_to_equal(dst: Any, src: Any) -> None:
    """Edits dst (a dict or list) in place to equal src, keeping each dict, and each list of
    the same length, found at the same key or index in both (SPEC.md §3, inPlace)."""
    if isinstance(dst, dict):
        for k in [k for k in dst if k not in src]:
            del dst[k]
    for k in range(len(src)) if isinstance(src, list) else src:
        cur, new = (dst[k] if isinstance(dst, list) else dst.get(k)), src[k]
        if (isinstance(cur, dict) and isinstance(new, dict)) or (
                isinstance(cur, list) and isinstance(new, list) and len(cur) == len(new)):
            edit_to_equal(cur, new)
        else:
            dst[k] = new


def body_transform_stub(client: str) -> Callable[[dict[str, Any]], Any]:
    def transform(body: dict[str, Any]) -> Any:
        value, in_place = call_back("bodyTransform", {"client": client, "body": body})
        if in_place and isinstance(value, dict):
            edit_to_equal(body, value)
            return body
        return value  # a new body, or None: the port keeps its own
    return transform


def before_llm_stub(client: str) -> Callable[[dict[str, Any]], Any]:
    def before_llm(ev: dict[str, Any]) -> Any:
        args = {"client": client, "turn": ev.get("turn"), "messages": ev.get("messages"), "tools": ev.get("tools")}
        return call_back("beforeLLM", args)[0]  # None, or {messages?, tools?}: the port's override
    return before_llm


class RecordingTransport(tn.UrllibTransport):
    """The port's Gap 2 injection point, its default transport, calling back before each request."""

    def __init__(self, client: str) -> None:
        self._client = client

    def post(self, url: str, *rest: Any) -> Any:
        call_back("http", {"client": self._client, "method": "POST", "url": url})
        return super().post(url, *rest)

    def open(self, url: str, *rest: Any) -> Any:  # noqa: A003
        call_back("http", {"client": self._client, "method": "POST", "url": url})
        return super().open(url, *rest)


def host_tool(toolkit: str, spec: dict[str, Any]) -> Any:
    async def execute(args: Optional[dict[str, Any]] = None, ctx: Any = None) -> Any:
        output, _ = call_back("tool", {"toolkit": toolkit, "name": spec["name"], "input": args})
        return tn.ToolResult(output=output, is_error=False)
    return tn.Tool(name=spec["name"], description=spec["description"],
                   input_schema=copy.deepcopy(spec["inputSchema"]), source="custom", execute=execute)


def native_tool(toolkit: str, spec: dict[str, Any]) -> Any:
    """define_tool(fn, ...): the port maps what fn returns or raises. native.py calls
    fn(**dict(args or {})) (plus ctx= only when fn names a ctx/context parameter), so fn takes
    **kwargs alone: it then receives exactly the args' keys and values, relayed as input."""
    returns = spec.get("returns", "string")

    def fn(**kwargs: Any) -> Any:  # a plain def: the port runs it in a worker thread
        value, _ = call_back("tool", {"toolkit": toolkit, "name": spec["name"], "input": kwargs})
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


# --- errors, relayed for the runner to judge ---------------------------------------------------
def type_name(cls: type) -> str:
    return cls.__qualname__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"


def message_of(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


def error_of(exc: BaseException) -> dict[str, Any]:
    """{message, type, chain}: the chain is the exception, then depth first an ExceptionGroup's
    members and the __cause__; `is` names each entry's base classes."""
    chain: list[dict[str, Any]] = []
    seen: set[int] = set()  # a cause cycle ends the walk

    def walk(e: BaseException) -> None:
        if id(e) in seen:
            return
        seen.add(id(e))
        bases = [type_name(c) for c in type(e).__mro__[1:] if c not in (object, BaseException)]
        chain.append({"type": type_name(type(e)), "is": bases, "message": message_of(e)})
        for sub in e.exceptions if isinstance(e, BaseExceptionGroup) else ():
            walk(sub)
        if e.__cause__ is not None:
            walk(e.__cause__)
    walk(exc)
    return {"message": message_of(exc), "type": type_name(type(exc)), "chain": chain}


@contextlib.contextmanager
def cancel_handle(args: dict[str, Any]) -> Any:
    """cancelAfterMs / deadlineMs -> one asyncio.Event, the port's only cancellation handle,
    set when the first of them passes (0: before the port is called). None when neither is given."""
    limits = [ms for ms in (args.get("cancelAfterMs"), args.get("deadlineMs")) if ms is not None]
    event = asyncio.Event() if limits else None
    timer = None
    if limits and min(limits) <= 0:
        event.set()
    elif limits:
        timer = asyncio.get_running_loop().call_later(min(limits) / 1000.0, event.set)
    try:
        yield event
    finally:
        if timer is not None:
            timer.cancel()


# --- state -------------------------------------------------------------------------------------
class ToolkitHolder:
    """Owns one toolkit in its own task: created there, closed there (see the module doc)."""

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


clients: dict[str, Any] = {}  # handle -> the port's Client
host_stores: dict[str, Any] = {}  # client handle -> the store it was given with store: host
toolkits: dict[str, ToolkitHolder] = {}


def lookup(table: dict[str, Any], handle: Optional[str], what: str) -> Any:
    if handle not in table:
        raise AdapterError("failed", f"adapter: unknown {what} handle {handle!r}")
    return table[handle]


def toolkit_of(args: dict[str, Any]) -> Any:
    return None if args.get("toolkit") is None else lookup(toolkits, args["toolkit"], "toolkit").toolkit


def config_input(cfg: dict[str, Any]) -> Any:  # {file}: the path string; {inline}: the object
    return cfg["file"] if "file" in cfg else copy.deepcopy(cfg["inline"])


def run_report(res: Any) -> dict[str, Any]:
    # What the port returned, nothing invented: a missing result stays None/null.
    calls = getattr(res, "tool_calls", None)
    return {"text": getattr(res, "text", None), "turns": getattr(res, "turns", None),
            "toolCalls": [str(tc.get("name")) for tc in calls] if isinstance(calls, list) else None,
            "calls": [call_of(tc) for tc in calls] if isinstance(calls, list) else None}


def call_of(tc: dict[str, Any]) -> dict[str, Any]:
    # one RunResult.tool_calls entry {name, args, output, is_error, metadata}; metadata None: none given
    out = {"name": tc.get("name"), "args": tc.get("args"), "output": tc.get("output"), "isError": tc.get("is_error")}
    if tc.get("metadata") is not None:
        out["metadata"] = tc["metadata"]
    return out


# --- ops ---------------------------------------------------------------------------------------
async def op_hello(args: dict[str, Any]) -> dict[str, Any]:
    return {"port": "python", "library": "toolnexus", "version": importlib.metadata.version("toolnexus"),
            "runtime": f"{platform.python_implementation()} {platform.python_version()}", "ops": list(HANDLERS)}


async def op_client_create(args: dict[str, Any]) -> dict[str, Any]:
    handle = args["handle"]
    if "httpTimeoutMs" in args:
        # The port's http_transport has no timeout of its own to keep or drop.
        raise AdapterError("unsupported",
                           "adapter: httpTimeoutMs: the Python port takes an http_transport with no timeout of its own")
    kw: dict[str, Any] = {"base_url": args["baseUrl"], "style": args["style"],
                          "model": args["model"], "api_key": args["apiKey"]}
    for k, name in (("systemPrompt", "system_prompt"), ("maxTurns", "max_turns"), ("requestParams", "request_params")):
        if k in args:
            kw[name] = copy.deepcopy(args[k])
    if args.get("bodyTransform"):
        kw["body_transform"] = body_transform_stub(handle)
    if args.get("beforeLLM"):
        kw["hooks"] = {"before_llm": before_llm_stub(handle)}
    if args.get("httpClient") == "recording":
        kw["http_transport"] = RecordingTransport(handle)
    if args.get("store") == "host":
        kw["store"] = host_stores[handle] = tn.InMemoryConversationStore()
    clients[handle] = tn.create_client(**kw)
    return {}


async def op_client_run(args: dict[str, Any]) -> dict[str, Any]:
    client, tk, prompt = lookup(clients, args["client"], "client"), toolkit_of(args), args["prompt"]
    if not args.get("stream"):
        return run_report(await client.run(prompt, tk, history=args.get("history")))
    if args.get("history"):  # an empty history is the same as none
        raise AdapterError("unsupported",
                           "toolnexus Client.stream(prompt, toolkit, *, id=None, cancel=None) takes no history")
    result = None
    async with contextlib.aclosing(client.stream(prompt, tk)) as events:
        async for ev in events:
            if isinstance(ev, dict) and ev.get("type") == "done":
                result = ev.get("result")
    if result is None:
        raise AdapterError("failed", "adapter: the stream ended without a done event")
    return run_report(result)


async def op_client_ask(args: dict[str, Any]) -> dict[str, Any]:
    client = lookup(clients, args["client"], "client")
    return run_report(await client.ask(args["prompt"], toolkit_of(args), id=args["id"]))


async def op_store_get(args: dict[str, Any]) -> dict[str, Any]:
    msgs = await lookup(clients, args["client"], "client").conversation_store.get(args.get("id"))
    return {"messages": None if msgs is None else list(msgs)}


async def op_store_save(args: dict[str, Any]) -> dict[str, Any]:
    store = lookup(clients, args["client"], "client").conversation_store
    await store.save(args["id"], copy.deepcopy(args["messages"]))
    return {}


async def op_store_identity(args: dict[str, Any]) -> dict[str, Any]:
    store = lookup(clients, args["client"], "client").conversation_store
    return {"same": args["client"] in host_stores and store is host_stores[args["client"]]}


async def op_toolkit_create(args: dict[str, Any]) -> dict[str, Any]:
    handle = args["handle"]
    if handle in toolkits:  # the runner names every object once
        raise AdapterError("failed", f"adapter: toolkit handle {handle!r} is in use")
    # skills stay off (no skills_dir/skills/skill_provider); builtins only when asked
    kw: dict[str, Any] = {"builtins": args.get("builtins") is True}
    if "mcpConfig" in args:
        kw["mcp_config"] = config_input(args["mcpConfig"])
    if args.get("extraTools"):
        kw["extra_tools"] = [extra_tool(handle, t) for t in args["extraTools"]]
    with cancel_handle(args) as cancel:
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
    toolkits[handle] = holder
    return {"tools": [t.name for t in holder.toolkit.tools()], "status": dict(holder.toolkit.mcp_status())}


async def op_toolkit_close(args: dict[str, Any]) -> dict[str, Any]:
    holder = lookup(toolkits, args["toolkit"], "toolkit")
    del toolkits[args["toolkit"]]  # gone even when its close fails
    await holder.close(None)
    return {}


async def op_mcp_load(args: dict[str, Any]) -> dict[str, Any]:
    inp = config_input(args["mcpConfig"])
    if args.get("context", True) is False:
        if "cancelAfterMs" in args or "deadlineMs" in args:
            raise AdapterError("unsupported", "toolnexus load_mcp(input, wait_for=None) (the no-context "
                                              "entry point) takes no cancellation handle")
        src = await tn.load_mcp(inp)
    else:
        with cancel_handle(args) as cancel:
            src = await tn.load_mcp_with_context(inp, cancel=cancel)
    if src is None:
        return {"tools": None, "status": None}
    try:
        return {"tools": [t.name for t in src.tools], "status": dict(src.status)}
    finally:
        await src.close()


async def op_mcp_list(args: dict[str, Any]) -> dict[str, Any]:
    with cancel_handle(args) as cancel:
        inv = await tn.list_mcp_tools(config_input(args["mcpConfig"]), cancel=cancel)
    if inv is None:
        return {"tools": None, "status": None}
    tools = {server: [{"name": ti.name, "description": ti.description, "inputSchema": ti.input_schema}
                      for ti in infos]
             for server, infos in inv.tools.items()}
    return {"tools": tools, "status": dict(inv.status)}


async def op_toolkit_describe(args: dict[str, Any]) -> dict[str, Any]:
    tk = toolkit_of(args)
    tools = tk.tools()
    return {"tools": None if tools is None else [
        {"name": t.name, "description": t.description, "inputSchema": t.input_schema, "source": t.source}
        for t in tools], "status": dict(tk.mcp_status())}


async def op_tool_execute(args: dict[str, Any]) -> dict[str, Any]:
    # args absent or null: None, the port's default (execute(name, args=None))
    res = await toolkit_of(args).execute(args["name"], copy.deepcopy(args.get("args")))
    out = {"output": res.output, "isError": res.is_error}
    if res.metadata is not None:  # None: the port gave none
        out["metadata"] = res.metadata
    return out


async def op_adapters(args: dict[str, Any]) -> dict[str, Any]:
    tk = toolkit_of(args)
    return {"openai": tk.to_openai(), "anthropic": tk.to_anthropic(), "gemini": tk.to_gemini()}


async def op_sanitize(args: dict[str, Any]) -> dict[str, Any]:
    if not callable(getattr(tn, "sanitize", None)):
        raise AdapterError("unsupported", "adapter: this toolnexus exports no sanitize")
    return {"value": tn.sanitize(args["value"])}


async def op_shutdown(args: dict[str, Any]) -> dict[str, Any]:
    return {}


HANDLERS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "hello": op_hello, "client.create": op_client_create, "client.run": op_client_run,
    "client.ask": op_client_ask, "store.get": op_store_get, "store.save": op_store_save,
    "store.identity": op_store_identity, "toolkit.create": op_toolkit_create,
    "toolkit.close": op_toolkit_close, "mcp.load": op_mcp_load, "mcp.list": op_mcp_list,
    "toolkit.describe": op_toolkit_describe, "tool.execute": op_tool_execute, "adapters": op_adapters,
    "sanitize": op_sanitize, "shutdown": op_shutdown,
}


# --- request loop ------------------------------------------------------------------------------
async def serve_one(rid: Any, op: Any, args: dict[str, Any]) -> dict[str, Any]:
    async def dispatch() -> tuple[bool, dict[str, Any]]:
        try:
            return True, await HANDLERS[op](args)  # the runner sends only the schema's ops
        except AdapterError as e:
            return False, {"kind": e.kind, "message": str(e)}
        except (Exception, asyncio.CancelledError, BaseExceptionGroup) as e:  # noqa: BLE001
            return False, error_of(e)  # what the port raised, relayed

    tee = StderrTee()
    prev, sys.stderr = sys.stderr, tee
    try:
        # A task of its own: a cancel the port leaks into its caller's task (an anyio cancel
        # scope) ends that request, never the loop.
        task = asyncio.ensure_future(dispatch())
        await asyncio.wait({task})
    finally:
        sys.stderr = prev
    if task.cancelled():
        ok, out = False, {"kind": "failed", "message": f"adapter: the task serving {op} was cancelled"}
    else:
        ok, out = task.result()
    resp: dict[str, Any] = {"id": rid, "ok": ok, ("result" if ok else "error"): out, "warnings": tee.warnings()}
    crashes = take_crashes()
    if crashes:
        resp["crashes"] = crashes
    return resp


async def main() -> None:
    loop = asyncio.get_running_loop()
    # The port runs every LLM request (and each SSE reader) in the default executor, and a
    # cancelled urllib call keeps its thread until its own timeout: give it room.
    loop.set_default_executor(concurrent.futures.ThreadPoolExecutor(max_workers=64, thread_name_prefix="tnx"))
    loop.set_exception_handler(on_loop_exception)
    threading.excepthook = on_thread_exception
    stdin = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="stdin")
    while raw := await loop.run_in_executor(stdin, sys.stdin.buffer.readline):
        try:
            msg = json.loads(raw)
            rid, op = msg["id"], msg.get("op")
        except (ValueError, TypeError, KeyError) as e:
            log(f"ignoring a line that is not a request ({e!r}): {raw[:200]!r}")
            continue
        resp = await serve_one(rid, op, msg.get("args") or {})
        try:
            write_line(resp)
        except ValueError as e:  # not encodable: a cycle, a lone surrogate
            write_line({"id": rid, "ok": False, "warnings": resp["warnings"],
                        "error": {"kind": "failed", "message": f"adapter: the result is not JSON: {e}"}})
        if op == "shutdown":
            break
    closing = [h.close(5.0) for h in toolkits.values()]
    for r in await asyncio.gather(*closing, return_exceptions=True):
        if isinstance(r, BaseException):
            log(f"toolkit close at exit: {message_of(r)}")
    # Skip interpreter teardown: it would join executor threads that may still be blocked in a
    # cancelled urllib call for up to its own timeout.
    os._exit(0)


if __name__ == "__main__":
    asyncio.run(main())
