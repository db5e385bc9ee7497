"""The adapter kit (SPEC.md §3), written once for every area: the request loop, the area files
found beside it (load_areas), op dispatch through the table they fill (register), the handle registry, the relay of errors with
their chain, the cancel handle, the capture of warnings and crashes, and hello. Its pipes to the
runner, the response writer and the one host-function stub `slot`, are in kit_wire.py. Nothing
here touches toolnexus or runs on import, so the fork server can import it before it forks."""
from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import importlib
import importlib.metadata
import io
import json
import math
import os
import platform
import sys
import threading
from typing import Any, Awaitable, Callable, Iterable, Optional

import kit_wire
from kit_wire import AdapterError, log, slot, take_stdout, write_line  # noqa: F401  the areas' kit API

Handler = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]
# What an area adds to the keywords of create_client / create_toolkit: (handle, args, kw), kw
# edited in place, after the op's own keywords. Raising refuses the op.
Option = Callable[[str, dict[str, Any], dict[str, Any]], None]
OPS: dict[str, Handler] = {}  # op -> handler, filled by the area files
_HELLO_KEY: dict[str, tuple[float, float, int]] = {}  # op -> its place in hello's list
_AREAS: list[tuple[float, int, tuple[str, ...], Optional[Option], Optional[Option]]] = []  # (order, seq, slots, client, toolkit), sorted
_CRASHES: list[str] = []  # what the port raised outside any call's result, for the next response


def register(ops: dict[str, Handler], slots: Iterable[str] = (), client_option: Optional[Option] = None,
             toolkit_option: Optional[Option] = None, *, order: float, ranks: Optional[dict[str, int]] = None) -> None:
    """An area's ops, the host-function slots it installs, and what it adds to client.create and
    toolkit.create. order places the area among the others: its slots' place in hello's list
    and its options' turn (whatever order the files were imported in). ranks: an op's place in
    hello's list as the one-file adapter sent it; an op added since has none and follows them by
    area order."""
    for name, handler in ops.items():
        if name in OPS:
            raise RuntimeError(f"adapter: op {name} registered twice")
        OPS[name] = handler
        _HELLO_KEY[name] = (ranks[name], 0, 0) if ranks and name in ranks else (math.inf, order, len(_HELLO_KEY))
    _AREAS.append((order, len(_AREAS), tuple(slots), client_option, toolkit_option))
    _AREAS.sort(key=lambda area: area[:2])


def load_areas() -> None:
    """Imports every area_*.py beside the kit (each registers itself on import), by file name:
    the order each declares, not the import order, places it. A new area is one file."""
    here = os.path.dirname(os.path.abspath(__file__))
    for name in sorted(f[:-3] for f in os.listdir(here) if f.startswith("area_") and f.endswith(".py")):
        importlib.import_module(name)


def slot_names() -> list[str]:
    """The host functions ("<area>.<name>") the areas install stubs for, as hello lists them."""
    names: list[str] = []
    for _, _, slots, _, _ in _AREAS:
        names.extend(s for s in slots if s not in names)
    return names


def client_options(handle: str, args: dict[str, Any], kw: dict[str, Any]) -> None:
    """What the other areas add to create_client's keywords (transport, store, hooks, ...), in
    area order: transport's refusal comes before the store area makes a store."""
    for _, _, _, option, _ in _AREAS:
        if option is not None:
            option(handle, args, kw)


def toolkit_options(handle: str, args: dict[str, Any], kw: dict[str, Any]) -> None:
    """What the other areas add to create_toolkit's keywords (mcp_config, the skill options, tools)."""
    for _, _, _, _, option in _AREAS:
        if option is not None:
            option(handle, args, kw)


# --- handles -----------------------------------------------------------------------------------
class Handles(dict):
    """Objects the adapter keeps between requests, by the handle the runner named them with."""

    def __init__(self, what: str) -> None:
        super().__init__()
        self.what = what

    def lookup(self, handle: Optional[str]) -> Any:
        if handle not in self:
            raise AdapterError("failed", f"adapter: unknown {self.what} handle {handle!r}")
        return self[handle]


clients = Handles("client")  # handle -> the port's Client
toolkits = Handles("toolkit")  # handle -> its owner: .toolkit, and async close(timeout), called at exit too


def toolkit_of(args: dict[str, Any]) -> Any:
    return None if args.get("toolkit") is None else toolkits.lookup(args["toolkit"]).toolkit


# --- crashes and warnings ----------------------------------------------------------------------
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
            kit_wire.real_stderr.write(s)
        return self.text.write(s)

    def warnings(self) -> list[str]:
        return [ln.rstrip("\r") for ln in self.text.getvalue().split("\n") if ln.startswith("[toolnexus]")]

    def __getattr__(self, name: str) -> Any:  # flush, fileno, encoding, ...
        return getattr(kit_wire.real_stderr, name)


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


# --- the ops every adapter has, and the request loop -------------------------------------------
async def op_hello(args: dict[str, Any]) -> dict[str, Any]:
    ops = sorted(OPS, key=_HELLO_KEY.__getitem__)
    return {"port": "python", "library": "toolnexus", "version": importlib.metadata.version("toolnexus"),
            "runtime": f"{platform.python_implementation()} {platform.python_version()}", "ops": ops,
            "slots": slot_names()}


async def op_shutdown(args: dict[str, Any]) -> dict[str, Any]:
    return {}


async def serve_one(rid: Any, op: Any, args: dict[str, Any]) -> dict[str, Any]:
    async def dispatch() -> tuple[bool, dict[str, Any]]:
        try:
            return True, await OPS[op](args)  # the runner sends only the schema's ops
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


register({"hello": op_hello, "shutdown": op_shutdown}, order=0, ranks={"hello": 0, "shutdown": 15})


def serve() -> None:
    """Serves requests until EOF or shutdown; take_stdout and the areas' imports come first."""
    asyncio.run(main())
