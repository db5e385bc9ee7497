#!/usr/bin/env python3
"""toolnexus conformance adapter for the Python port (SPEC.md §3).

Reads one JSON request per line on stdin, handles them one at a time, and writes one JSON
response per line on stdout. Nothing else is written to stdout: the process's fd 1 is pointed
at stderr at start-up, and responses go to a private duplicate of the original stdout.

Everything goes through toolnexus's public API: create_client, create_toolkit,
load_mcp / load_mcp_with_context, list_mcp_tools, Client.run / stream / ask,
Client.conversation_store, InMemoryConversationStore, UrllibTransport (wrapped to count calls),
Tool / ToolResult (host tools).

One asyncio loop lives for the whole process. Each request runs in its own task. A toolkit
is created and closed inside an owner task that lives as long as the toolkit. The MCP SDK's
anyio transports must be exited in the task that entered them, and in LIFO order.

Env knobs (all optional):
  TOOLNEXUS_ADAPTER_OP_TIMEOUT_S    hard cap on one request (default 300); the runner's own
                                    per-call deadline is normally much shorter
  TOOLNEXUS_ADAPTER_IDLE_TIMEOUT_S  exit when no request arrives for this long (default 3600)
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import copy
import dataclasses
import importlib.metadata
import json
import os
import platform
import sys
import threading
from typing import Any, Callable, Optional

# --- stdout protection: responses only -------------------------------------------------------
# Keep a private handle on the real stdout, then point fd 1 (and so sys.stdout and any child
# that inherits it) at stderr, so a stray print can never corrupt the protocol stream.
_OUT_FD = os.dup(1)
os.dup2(2, 1)
_REAL_STDERR = sys.stderr

try:
    import toolnexus as tn
except Exception as _e:  # noqa: BLE001
    print(f"toolnexus adapter: cannot import toolnexus: {_e!r}", file=_REAL_STDERR, flush=True)
    sys.exit(3)

OP_TIMEOUT_S = float(os.environ.get("TOOLNEXUS_ADAPTER_OP_TIMEOUT_S", "300"))
IDLE_TIMEOUT_S = float(os.environ.get("TOOLNEXUS_ADAPTER_IDLE_TIMEOUT_S", "3600"))
CLEANUP_TIMEOUT_S = 5.0

OPS = [
    "hello", "client.create", "client.run", "client.ask", "store.get", "store.save",
    "store.identity", "toolkit.create", "toolkit.close", "mcp.load", "mcp.list", "shutdown",
]


def log(msg: str) -> None:
    try:
        print(f"[adapter] {msg}", file=_REAL_STDERR, flush=True)
    except Exception:  # noqa: BLE001
        pass


def _jsonable(o: Any) -> Any:
    if dataclasses.is_dataclass(o) and not isinstance(o, type):
        return {f.name: getattr(o, f.name) for f in dataclasses.fields(o)}
    if isinstance(o, (set, frozenset, tuple)):
        return list(o)
    if isinstance(o, (bytes, bytearray)):
        return o.decode("utf-8", "replace")
    return repr(o)


def _json_copy(v: Any) -> Any:
    """A deep copy as plain JSON data (what the wire would carry)."""
    return json.loads(json.dumps(v, default=_jsonable))


# What the library raised outside any call's result (an exception in a callback or a task
# nobody awaited, a crash on a library thread): the next response carries it in "crashes",
# for the runner to judge. The adapter never swallows one.
CRASHES: list[str] = []
_CRASH_LOCK = threading.Lock()


def record_crash(text: str) -> None:
    log(text)
    with _CRASH_LOCK:
        CRASHES.append(text)


def take_crashes() -> list[str]:
    with _CRASH_LOCK:
        out = CRASHES[:]
        CRASHES.clear()
    return out


def on_loop_exception(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    exc = context.get("exception")
    record_crash(f"asyncio: {context.get('message', '')}: {message_of(exc) if exc else ''}".rstrip(": "))


def on_thread_exception(args: Any) -> None:
    name = args.thread.name if args.thread else "?"
    record_crash(f"uncaught exception in thread {name}: {args.exc_type.__name__}: {args.exc_value}")


def write_line(obj: dict[str, Any]) -> None:
    data = (json.dumps(obj, ensure_ascii=False, default=_jsonable) + "\n").encode("utf-8")
    view = memoryview(data)
    while view:
        n = os.write(_OUT_FD, view)
        view = view[n:]


# --- warning capture ----------------------------------------------------------------------------
class StderrTee:
    """Stands in for sys.stderr during one request. Everything goes on to the real stderr,
    and the complete lines that start with "[toolnexus]" are kept as warnings. The port
    prints with print(..., file=sys.stderr) and looks sys.stderr up at call time."""

    def __init__(self, real: Any) -> None:
        self._real = real
        self._lock = threading.Lock()
        self._buf = ""
        self._lines: list[str] = []

    def write(self, s: Any) -> int:
        if not isinstance(s, str):
            s = str(s)
        try:
            self._real.write(s)
        except Exception:  # noqa: BLE001
            pass
        with self._lock:
            self._buf += s
            while "\n" in self._buf:
                line, self._buf = self._buf.split("\n", 1)
                self._take(line)
        return len(s)

    def writelines(self, lines: Any) -> None:
        for s in lines:
            self.write(s)

    def _take(self, line: str) -> None:
        line = line.rstrip("\r")
        if line.startswith("[toolnexus]"):
            self._lines.append(line)

    def drain(self) -> list[str]:
        with self._lock:
            if self._buf:
                self._take(self._buf)
                self._buf = ""
            out, self._lines = self._lines, []
        return out

    def flush(self) -> None:
        try:
            self._real.flush()
        except Exception:  # noqa: BLE001
            pass

    def fileno(self) -> int:
        return self._real.fileno()

    def isatty(self) -> bool:
        return False

    def writable(self) -> bool:
        return True

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


# --- errors -------------------------------------------------------------------------------------
class AdapterError(Exception):
    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


_CANCEL_TYPES: tuple[type, ...] = (asyncio.CancelledError, concurrent.futures.CancelledError, tn.RunCancelled)


def _leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        out: list[BaseException] = []
        for e in exc.exceptions:
            out.extend(_leaves(e))
        return out
    return [exc]


def classify(exc: BaseException) -> str:
    """SPEC.md §3: the kind comes from the exception's type only. The port's one cancellation
    handle is an asyncio.Event, so a cancel and a deadline both surface as CancelledError
    ("cancelled"); TimeoutError (toolnexus.RunTimeout included) is "deadline"."""
    leaves = _leaves(exc)
    if any(isinstance(e, _CANCEL_TYPES) for e in leaves):
        return "cancelled"
    first = leaves[0] if leaves else exc
    if isinstance(first, TimeoutError):  # includes toolnexus.RunTimeout
        return "deadline"
    if isinstance(first, (ValueError, TypeError, FileNotFoundError, IsADirectoryError, NotADirectoryError)):
        return "invalid"  # json.JSONDecodeError is a ValueError
    return "failed"


def type_of(exc: BaseException) -> str:
    """The exception's class as module.qualname ("asyncio.exceptions.CancelledError"), builtins bare."""
    leaves = _leaves(exc)
    cls = type(next((e for e in leaves if isinstance(e, _CANCEL_TYPES)), leaves[0] if leaves else exc))
    return cls.__qualname__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"


def message_of(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


class Timers:
    """cancelAfterMs / deadlineMs -> one asyncio.Event (the Python port's cancellation handle),
    set by loop.call_later. Remembers which timer fired first."""

    def __init__(self, args: dict[str, Any]) -> None:
        self.event: Optional[asyncio.Event] = None
        self.fired: Optional[str] = None
        self._handles: list[asyncio.TimerHandle] = []
        loop = asyncio.get_running_loop()
        for key, kind in (("cancelAfterMs", "cancel"), ("deadlineMs", "deadline")):
            ms = args.get(key)
            if ms is None:
                continue
            if self.event is None:
                self.event = asyncio.Event()
            if ms <= 0:
                self._fire(kind)  # "0 ms after the call starts" = already fired when the port is called
            else:
                self._handles.append(loop.call_later(ms / 1000.0, self._fire, kind))

    def _fire(self, kind: str) -> None:
        if self.event is not None and not self.event.is_set():
            self.fired = kind
            self.event.set()

    def close(self) -> None:
        for h in self._handles:
            h.cancel()


class Req:
    """Per-request context: the timers, if the op made them, so errors can be classified."""

    def __init__(self) -> None:
        self.timers: Optional[Timers] = None

    def make_timers(self, args: dict[str, Any]) -> Timers:
        self.timers = Timers(args)
        return self.timers

    def close(self) -> None:
        if self.timers is not None:
            self.timers.close()


# --- state --------------------------------------------------------------------------------------
class CountingTransport:
    """The Gap 2 injection point: toolnexus's default UrllibTransport, wrapped to count every
    call it carries. Both methods are blocking and run in worker threads."""

    def __init__(self) -> None:
        self._inner = tn.UrllibTransport()
        self._lock = threading.Lock()
        self._count = 0

    def _inc(self) -> None:
        with self._lock:
            self._count += 1

    @property
    def count(self) -> int:
        with self._lock:
            return self._count

    def post(self, url: str, headers: dict[str, str], payload: dict[str, Any], timeout: float) -> Any:
        self._inc()
        return self._inner.post(url, headers, payload, timeout)

    def open(self, url: str, headers: dict[str, str], payload: dict[str, Any], timeout: float) -> Any:  # noqa: A003
        self._inc()
        return self._inner.open(url, headers, payload, timeout)


class ClientState:
    def __init__(self) -> None:
        self.client: Any = None
        self.host_store: Any = None
        self.recorder: Optional[CountingTransport] = None
        self.transform_saw: list[Any] = []
        self.hook_saw: list[dict[str, Any]] = []


class ToolkitHolder:
    """Owns one toolkit in its own task: created there, closed there (see module doc)."""

    def __init__(self, kwargs: dict[str, Any]) -> None:
        loop = asyncio.get_running_loop()
        self.ready: asyncio.Future = loop.create_future()   # ("ok", Toolkit) | ("err", exc)
        self.closed: asyncio.Future = loop.create_future()  # ("ok", None) | ("err", exc)
        self.close_req = asyncio.Event()
        self.task = asyncio.ensure_future(self._own(kwargs))

    @staticmethod
    def _settle(fut: asyncio.Future, value: Any) -> None:
        if not fut.done():
            fut.set_result(value)

    async def _own(self, kwargs: dict[str, Any]) -> None:
        try:
            tk = await tn.create_toolkit(**kwargs)
        except BaseException as e:  # noqa: BLE001 — boxed, re-raised in the request task
            self._settle(self.ready, ("err", e))
            self._settle(self.closed, ("ok", None))
            return
        self._settle(self.ready, ("ok", tk))
        try:
            await self.close_req.wait()
        finally:
            try:
                await tk.close()
                self._settle(self.closed, ("ok", None))
            except BaseException as e:  # noqa: BLE001
                self._settle(self.closed, ("err", e))

    async def close(self, timeout: float) -> None:
        self.close_req.set()
        done, _ = await asyncio.wait({self.closed}, timeout=timeout)
        if not done:
            raise AdapterError("failed", f"adapter: toolkit close did not finish within {timeout:g}s")
        status, val = self.closed.result()
        if status == "err":
            raise val


clients: dict[str, ClientState] = {}
toolkits: dict[str, ToolkitHolder] = {}


def need(args: dict[str, Any], key: str) -> Any:
    if key not in args:
        raise AdapterError("failed", f"adapter: missing argument {key!r}")
    return args[key]


def get_client(args: dict[str, Any]) -> ClientState:
    h = need(args, "client")
    st = clients.get(h)
    if st is None:
        raise AdapterError("failed", f"adapter: unknown client handle {h!r}")
    return st


def get_toolkit(args: dict[str, Any]) -> Any:
    h = args.get("toolkit")
    if h is None:
        return None
    holder = toolkits.get(h)
    if holder is None or not holder.ready.done() or holder.ready.result()[0] != "ok":
        raise AdapterError("failed", f"adapter: unknown toolkit handle {h!r}")
    return holder.ready.result()[1]


def config_input(cfg: Any) -> Any:
    """{file: path} -> the path string; {inline: obj} -> the object."""
    if isinstance(cfg, dict) and "file" in cfg:
        return cfg["file"]
    if isinstance(cfg, dict) and "inline" in cfg:
        return copy.deepcopy(cfg["inline"])
    raise AdapterError("failed", f"adapter: mcpConfig must be {{file}} or {{inline}}, got {cfg!r}")


def edit_last_user(msgs: Any, edit: Callable[[Any], Any]) -> Any:
    """A copy of msgs in which the last message with role "user" is a copy whose content is
    edit(content). Only the touched message is copied, so the port's own transcript is never
    changed behind its back. Non-list input is returned as is. Same rule as runners/go/hooks.go
    and the steps' model of the transform."""
    if not isinstance(msgs, list):
        return msgs
    out = list(msgs)
    for i in range(len(out) - 1, -1, -1):
        m = out[i]
        if isinstance(m, dict) and m.get("role") == "user":
            out[i] = {**m, "content": edit(m.get("content"))}
            break
    return out


def make_body_transform(spec: dict[str, Any], st: ClientState) -> Callable[[dict[str, Any]], Any]:
    delete = list(spec.get("delete") or [])
    set_ = dict(spec.get("set") or {})
    append = spec.get("appendToLastUser")
    set_nested = dict(spec.get("setNested") or {})
    in_place = bool(spec.get("inPlace"))
    return_null = bool(spec.get("returnNull"))

    def edit_in_place(body: dict[str, Any]) -> dict[str, Any]:
        # SPEC.md §3 inPlace: edit the very objects received and return the same body (A4.4)
        for k in delete:
            body.pop(k, None)
        for k, v in set_.items():
            body[k] = copy.deepcopy(v)
        for k, sub in set_nested.items():
            obj = body.get(k)
            if not isinstance(obj, dict):
                obj = {}
                body[k] = obj
            obj.update(copy.deepcopy(sub))
        msgs = body.get("messages")
        if append is not None and isinstance(msgs, list):
            for m in reversed(msgs):
                if isinstance(m, dict) and m.get("role") == "user":
                    if isinstance(m.get("content"), str):
                        m["content"] = m["content"] + append
                    break
        return body

    def body_transform(body: dict[str, Any]) -> Optional[dict[str, Any]]:
        st.transform_saw.append(_json_copy(body))
        if return_null:
            return None
        if in_place:
            return edit_in_place(body)
        out = dict(body)
        for k in delete:
            out.pop(k, None)
        for k, v in set_.items():
            out[k] = copy.deepcopy(v)
        for k, sub in set_nested.items():
            old = out.get(k)
            out[k] = {**(old if isinstance(old, dict) else {}), **copy.deepcopy(sub)}
        if append is not None and "messages" in out:
            # only string content is appended to; the last user message is never skipped over
            out["messages"] = edit_last_user(out["messages"], lambda c: c + append if isinstance(c, str) else c)
        return out

    return body_transform


def make_before_llm(spec: dict[str, Any], st: ClientState) -> Callable[[dict[str, Any]], Any]:
    has_tools = "tools" in spec
    tools = spec.get("tools")
    set_last = spec.get("setLastUserContent")

    def before_llm(ev: dict[str, Any]) -> Optional[dict[str, Any]]:
        msgs = ev.get("messages") or []
        tl = ev.get("tools") or []
        st.hook_saw.append({"turn": ev.get("turn"), "messageCount": len(msgs), "toolCount": len(tl)})
        ov: dict[str, Any] = {}
        if set_last is not None:
            ov["messages"] = edit_last_user(list(msgs), lambda _c: set_last)
        if has_tools:
            ov["tools"] = copy.deepcopy(tools) if tools is not None else []
        return ov or None

    return before_llm


def make_host_tool(spec: dict[str, Any]) -> Any:
    output = spec["output"]

    async def execute(args: Optional[dict[str, Any]] = None, ctx: Any = None) -> Any:
        return tn.ToolResult(output=output, is_error=False)

    return tn.Tool(
        name=spec["name"],
        description=spec["description"],
        input_schema=copy.deepcopy(spec["inputSchema"]),
        source="custom",
        execute=execute,
    )


def run_report(st: ClientState, res: Any, n0: int) -> dict[str, Any]:
    # SPEC.md §3: what the port returned, nothing invented; a missing result stays None/null.
    calls = getattr(res, "tool_calls", None)
    return {
        "text": getattr(res, "text", None),
        "turns": getattr(res, "turns", None),
        "toolCalls": [str(tc.get("name")) for tc in calls] if isinstance(calls, list) else None,
        "transformSaw": list(st.transform_saw),
        "hookSaw": list(st.hook_saw),
        "httpRequests": (st.recorder.count - n0) if st.recorder is not None else 0,
    }


def begin_run(st: ClientState) -> int:
    st.transform_saw.clear()
    st.hook_saw.clear()
    return st.recorder.count if st.recorder is not None else 0


# --- ops ----------------------------------------------------------------------------------------
async def op_hello(args: dict[str, Any], req: Req) -> dict[str, Any]:
    return {
        "port": "python",
        "library": "toolnexus",
        "version": importlib.metadata.version("toolnexus"),
        "runtime": f"{platform.python_implementation()} {platform.python_version()}",
        "ops": list(OPS),
    }


async def op_client_create(args: dict[str, Any], req: Req) -> dict[str, Any]:
    handle = need(args, "handle")
    st = ClientState()
    kw: dict[str, Any] = {
        "base_url": need(args, "baseUrl"),
        "style": need(args, "style"),
        "model": need(args, "model"),
        "api_key": need(args, "apiKey"),
    }
    if "systemPrompt" in args:
        kw["system_prompt"] = args["systemPrompt"]
    if "maxTurns" in args:
        kw["max_turns"] = args["maxTurns"]
    if "requestParams" in args:
        kw["request_params"] = copy.deepcopy(args["requestParams"])
    if "bodyTransform" in args:
        kw["body_transform"] = make_body_transform(args["bodyTransform"] or {}, st)
    if "beforeLLM" in args:
        kw["hooks"] = {"before_llm": make_before_llm(args["beforeLLM"] or {}, st)}
    http = args.get("httpClient", "default")
    if http == "recording":
        st.recorder = CountingTransport()
        kw["http_transport"] = st.recorder
    elif http != "default":
        raise AdapterError("unsupported", f"adapter: httpClient {http!r}")
    store = args.get("store", "default")
    if store == "host":
        st.host_store = tn.InMemoryConversationStore()
        kw["store"] = st.host_store
    elif store != "default":
        raise AdapterError("unsupported", f"adapter: store {store!r}")
    st.client = tn.create_client(**kw)
    clients[handle] = st
    return {}


async def op_client_run(args: dict[str, Any], req: Req) -> dict[str, Any]:
    st = get_client(args)
    tk = get_toolkit(args)
    prompt = need(args, "prompt")
    n0 = begin_run(st)
    if args.get("stream"):
        if args.get("history"):  # an empty history is the same as none
            raise AdapterError(
                "unsupported",
                "toolnexus Client.stream(prompt, toolkit, *, id=None, cancel=None) takes no history",
            )
        result = None
        agen = st.client.stream(prompt, tk)
        try:
            async for ev in agen:
                if isinstance(ev, dict) and ev.get("type") == "done":
                    result = ev.get("result")
        finally:
            await agen.aclose()
        if result is None:
            raise AdapterError("failed", "adapter: the stream ended without a done event")
    else:
        result = await st.client.run(prompt, tk, history=args.get("history"))
    return run_report(st, result, n0)


async def op_client_ask(args: dict[str, Any], req: Req) -> dict[str, Any]:
    st = get_client(args)
    tk = get_toolkit(args)
    prompt = need(args, "prompt")
    cid = need(args, "id")
    n0 = begin_run(st)
    result = await st.client.ask(prompt, tk, id=cid)
    return run_report(st, result, n0)


async def op_store_get(args: dict[str, Any], req: Req) -> dict[str, Any]:
    st = get_client(args)
    msgs = await st.client.conversation_store.get(need(args, "id"))
    return {"messages": None if msgs is None else _json_copy(list(msgs))}


async def op_store_save(args: dict[str, Any], req: Req) -> dict[str, Any]:
    st = get_client(args)
    await st.client.conversation_store.save(need(args, "id"), copy.deepcopy(need(args, "messages")))
    return {}


async def op_store_identity(args: dict[str, Any], req: Req) -> dict[str, Any]:
    st = get_client(args)
    return {"same": st.host_store is not None and st.client.conversation_store is st.host_store}


async def op_toolkit_create(args: dict[str, Any], req: Req) -> dict[str, Any]:
    handle = need(args, "handle")
    kw: dict[str, Any] = {"builtins": False}  # skills stay off: no skills_dir/skills/skill_provider
    if "mcpConfig" in args:
        kw["mcp_config"] = config_input(args["mcpConfig"])
    if args.get("extraTools"):
        kw["extra_tools"] = [make_host_tool(t) for t in args["extraTools"]]
    timers = req.make_timers(args)
    if timers.event is not None:
        kw["cancel"] = timers.event
    old = toolkits.pop(handle, None)
    if old is not None:
        try:
            await old.close(CLEANUP_TIMEOUT_S)
        except BaseException as e:  # noqa: BLE001
            log(f"closing the toolkit previously named {handle!r} failed: {message_of(e)}")
    holder = ToolkitHolder(kw)
    try:
        status, val = await asyncio.shield(holder.ready)
    except asyncio.CancelledError:
        holder.task.cancel()
        raise
    if status == "err":
        raise val
    if val is None:
        return {"tools": None, "status": None}
    toolkits[handle] = holder
    return {"tools": [t.name for t in val.tools()], "status": dict(val.mcp_status())}


async def op_toolkit_close(args: dict[str, Any], req: Req) -> dict[str, Any]:
    h = need(args, "toolkit")
    holder = toolkits.pop(h, None)
    if holder is None:
        raise AdapterError("failed", f"adapter: unknown toolkit handle {h!r}")
    await holder.close(OP_TIMEOUT_S)
    return {}


async def op_mcp_load(args: dict[str, Any], req: Req) -> dict[str, Any]:
    inp = config_input(need(args, "mcpConfig"))
    if args.get("context", True) is False:
        if "cancelAfterMs" in args or "deadlineMs" in args:
            raise AdapterError(
                "unsupported",
                "toolnexus load_mcp(input, wait_for=None) (the no-context entry point) takes no cancellation handle",
            )
        src = await tn.load_mcp(inp)
    else:
        timers = req.make_timers(args)
        src = await tn.load_mcp_with_context(inp, cancel=timers.event)
    if src is None:
        return {"tools": None, "status": None}
    try:
        result = {"tools": [t.name for t in src.tools], "status": dict(src.status)}
    finally:
        await src.close()
    return result


async def op_mcp_list(args: dict[str, Any], req: Req) -> dict[str, Any]:
    inp = config_input(need(args, "mcpConfig"))
    timers = req.make_timers(args)
    inv = await tn.list_mcp_tools(inp, cancel=timers.event)
    if inv is None:
        return {"tools": None, "status": None}
    tools = {
        server: [
            {"name": ti.name, "description": ti.description, "inputSchema": _json_copy(ti.input_schema)}
            for ti in infos
        ]
        for server, infos in inv.tools.items()
    }
    return {"tools": tools, "status": dict(inv.status)}


async def op_shutdown(args: dict[str, Any], req: Req) -> dict[str, Any]:
    return {}


HANDLERS: dict[str, Callable[[dict[str, Any], Req], Any]] = {
    "hello": op_hello,
    "client.create": op_client_create,
    "client.run": op_client_run,
    "client.ask": op_client_ask,
    "store.get": op_store_get,
    "store.save": op_store_save,
    "store.identity": op_store_identity,
    "toolkit.create": op_toolkit_create,
    "toolkit.close": op_toolkit_close,
    "mcp.load": op_mcp_load,
    "mcp.list": op_mcp_list,
    "shutdown": op_shutdown,
}


# --- arguments ----------------------------------------------------------------------------------
# The fields each op (and nested object) knows, as in schema/protocol.schema.json. SPEC.md §3: an
# argument this adapter does not know is "unsupported", named.
_TIMING = ["cancelAfterMs", "deadlineMs"]
KNOWN_ARGS: dict[str, list[str]] = {
    "hello": [], "shutdown": [],
    "client.create": ["handle", "baseUrl", "style", "model", "apiKey", "systemPrompt", "maxTurns",
                      "requestParams", "bodyTransform", "beforeLLM", "httpClient", "store"],
    "client.run": ["client", "toolkit", "prompt", "stream", "history"],
    "client.ask": ["client", "toolkit", "prompt", "id"],
    "store.get": ["client", "id"], "store.identity": ["client", "id"], "store.save": ["client", "id", "messages"],
    "toolkit.create": ["handle", "mcpConfig", "extraTools", *_TIMING],
    "toolkit.close": ["toolkit"],
    "mcp.load": ["mcpConfig", "context", *_TIMING], "mcp.list": ["mcpConfig", "context", *_TIMING],
}
KNOWN_NESTED = {
    "bodyTransform": ["delete", "set", "setNested", "appendToLastUser", "inPlace", "returnNull"],
    "beforeLLM": ["setLastUserContent", "tools"],
    "mcpConfig": ["file", "inline"],
}


def check_args(op: str, args: dict[str, Any]) -> None:
    def check(where: str, obj: dict[str, Any], names: list[str]) -> None:
        for k in obj:
            if k not in names:
                raise AdapterError("unsupported", f"adapter: unknown argument {json.dumps(where + k)}")

    check("", args, KNOWN_ARGS.get(op, list(args)))
    for k, names in KNOWN_NESTED.items():
        if isinstance(args.get(k), dict):
            check(k + ".", args[k], names)
    for t in args.get("extraTools") or []:
        if isinstance(t, dict):
            check("extraTools[].", t, ["name", "description", "inputSchema", "output"])


# --- request loop -------------------------------------------------------------------------------
async def dispatch(op: Any, args: dict[str, Any]) -> tuple:
    """Never raises (except when this task itself is cancelled). Returns ("ok", result)
    or ("err", kind, message)."""
    req = Req()
    try:
        fn = HANDLERS.get(op)
        if fn is None:
            return ("err", "unsupported", f"adapter: unknown op {op!r}")
        check_args(op, args)
        return ("ok", await fn(args, req))
    except AdapterError as e:
        return ("err", e.kind, str(e))
    except asyncio.CancelledError as e:
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            raise  # the adapter's own op cap cancelled us
        return ("err", classify(e), message_of(e), type_of(e))
    except Exception as e:  # noqa: BLE001
        return ("err", classify(e), message_of(e), type_of(e))
    except BaseExceptionGroup as e:  # noqa: BLE001 — e.g. a group of CancelledErrors from anyio
        return ("err", classify(e), message_of(e), type_of(e))
    finally:
        req.close()


async def serve_one(rid: Any, op: Any, args: dict[str, Any]) -> dict[str, Any]:
    tee = StderrTee(_REAL_STDERR)
    prev = sys.stderr
    sys.stderr = tee
    try:
        task = asyncio.ensure_future(dispatch(op, args))
        done, _ = await asyncio.wait({task}, timeout=OP_TIMEOUT_S)
        if not done:
            task.cancel()
            await asyncio.wait({task}, timeout=2.0)
            outcome: tuple = ("err", "failed", f"adapter: {op} did not finish within {OP_TIMEOUT_S:g}s")
        elif task.cancelled():
            outcome = ("err", "failed", f"adapter: the task serving {op} was cancelled")
        else:
            outcome = task.result()
    finally:
        sys.stderr = prev
    resp: dict[str, Any] = {"id": rid}
    if outcome[0] == "ok":
        resp["ok"] = True
        resp["result"] = outcome[1]
    else:
        resp["ok"] = False
        resp["error"] = {"kind": outcome[1], "message": outcome[2]}
        if len(outcome) > 3 and outcome[3]:
            resp["error"]["type"] = outcome[3]
    resp["warnings"] = tee.drain()
    crashes = take_crashes()
    if crashes:
        resp["crashes"] = crashes
    return resp


async def cleanup() -> None:
    holders = list(toolkits.values())
    toolkits.clear()
    if not holders:
        return
    results = await asyncio.gather(*(h.close(CLEANUP_TIMEOUT_S) for h in holders), return_exceptions=True)
    for r in results:
        if isinstance(r, BaseException):
            log(f"toolkit close at exit: {message_of(r)}")


async def main() -> None:
    loop = asyncio.get_running_loop()
    # The port runs every LLM request (and each SSE reader) in the default executor, and a
    # cancelled urllib call keeps its thread until its own timeout; give it room.
    loop.set_default_executor(concurrent.futures.ThreadPoolExecutor(max_workers=64, thread_name_prefix="tnx"))
    loop.set_exception_handler(on_loop_exception)
    threading.excepthook = on_thread_exception
    lines: asyncio.Queue = asyncio.Queue()

    def reader() -> None:
        try:
            for raw in sys.stdin.buffer:
                loop.call_soon_threadsafe(lines.put_nowait, raw)
        finally:
            loop.call_soon_threadsafe(lines.put_nowait, None)

    threading.Thread(target=reader, name="stdin", daemon=True).start()

    while True:
        try:
            raw = await asyncio.wait_for(lines.get(), timeout=IDLE_TIMEOUT_S)
        except asyncio.TimeoutError:
            log(f"no request for {IDLE_TIMEOUT_S:g}s; exiting")
            break
        if raw is None:
            break
        text = raw.decode("utf-8", "replace").strip()
        if not text:
            continue
        try:
            msg = json.loads(text)
        except ValueError as e:
            log(f"ignoring a line that is not JSON ({e}): {text[:200]}")
            continue
        if not isinstance(msg, dict) or "id" not in msg:
            log(f"ignoring a request without an id: {text[:200]}")
            continue
        op = msg.get("op")
        args = msg.get("args") if isinstance(msg.get("args"), dict) else {}
        resp = await serve_one(msg["id"], op, args)
        try:
            try:
                write_line(resp)
            except (TypeError, ValueError) as e:
                write_line({"id": msg["id"], "ok": False,
                            "error": {"kind": "failed", "message": f"adapter: result is not JSON: {e}"},
                            "warnings": resp.get("warnings", [])})
        except OSError as e:  # the runner went away
            log(f"cannot write a response ({e}); exiting")
            break
        if op == "shutdown":
            break

    await cleanup()
    try:
        _REAL_STDERR.flush()
    finally:
        # Skip interpreter teardown: it would join executor threads that may still be blocked
        # in a cancelled urllib call for up to its own timeout.
        os._exit(0)


if __name__ == "__main__":
    asyncio.run(main())
