"""The adapter's two pipes to the runner, part of the kit (kit.py): protocol lines out on a
private duplicate of stdout, and the one generic host-function stub, `slot`, whose answers come
back on the callback pipe (SPEC.md §3 "Host functions call back"). Nothing here runs on import,
so the fork server can import it before it forks; `take_stdout` runs in the adapter."""
from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import sys
import threading
from typing import Any

_out_fd = -1  # a private duplicate of the real stdout (take_stdout)
real_stderr: Any = sys.stderr
_WRITE_LOCK = threading.Lock()  # callbacks come from the port's worker threads too
_cb: dict[str, Any] = {"fd": -1, "n": 0, "unread": b""}
_CB_LOCK = threading.Lock()  # one callback at a time per adapter


class AdapterError(Exception):
    """The adapter's own answer, kind "unsupported" or "failed" (SPEC.md §3)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def take_stdout() -> None:
    """Keeps a private handle on the real stdout and points fd 1 (so sys.stdout and any child
    that inherits it) at stderr: a stray print can never corrupt the protocol stream. Takes the
    callback pipe from CONFORMANCE_CALLBACK_FD too."""
    global _out_fd, real_stderr
    _out_fd = os.dup(1)
    os.dup2(2, 1)
    real_stderr = sys.stderr
    fd = int(os.environ.get("CONFORMANCE_CALLBACK_FD") or -1)
    if fd >= 0:
        os.set_inheritable(fd, False)  # MCP stdio children must not hold the pipe
    _cb["fd"] = fd


def log(msg: str) -> None:
    with contextlib.suppress(Exception):  # a closed stderr must not break a request
        print(f"[adapter] {msg}", file=real_stderr, flush=True)


def _jsonable(o: Any) -> Any:
    # a ContentPart in a message is a dataclass; anything else unexpected is shown, not lost
    return dataclasses.asdict(o) if dataclasses.is_dataclass(o) and not isinstance(o, type) else repr(o)


def write_line(obj: dict[str, Any]) -> None:
    data = (json.dumps(obj, ensure_ascii=False, default=_jsonable) + "\n").encode("utf-8")
    with _WRITE_LOCK:
        view = memoryview(data)
        while view:
            view = view[os.write(_out_fd, view):]


def slot(fn: str, args: dict[str, Any], edit: Any = None) -> Any:
    """Calls the host function `fn`: writes a callback line and reads the runner's answer from
    the callback pipe in this thread. That blocks it (the asyncio loop too, when the port calls a
    host function there), which is fine: the runner answers at once. The answer returns a value,
    edits the argument in place (`edit`, when given, edited to equal the value when it is an
    object), or raises (RuntimeError with its text); this port has no suspension, so a suspend
    is the adapter's fault."""
    if _cb["fd"] < 0:
        raise AdapterError("failed", "adapter: no callback pipe (CONFORMANCE_CALLBACK_FD is unset)")
    with _CB_LOCK:
        _cb["n"] += 1
        n = _cb["n"]
        write_line({"callback": n, "fn": fn, "args": args})
        while b"\n" not in _cb["unread"]:
            chunk = os.read(_cb["fd"], 65536)
            if not chunk:
                raise AdapterError("failed", f"adapter: the callback pipe closed before answering {fn} #{n}")
            _cb["unread"] += chunk
        line, _cb["unread"] = _cb["unread"].split(b"\n", 1)
    answer = json.loads(line)
    if answer.get("callback") != n:
        raise AdapterError("failed", f"adapter: callback #{n} ({fn}) was answered as #{answer.get('callback')}")
    if "raise" in answer:
        raise RuntimeError(answer["raise"])
    if "suspend" in answer:
        raise AdapterError("failed", f"adapter: the runner suspended {fn}, which this adapter cannot")
    if "edit" in answer:
        value = answer["edit"]
        if edit is not None and isinstance(value, dict):
            edit_to_equal(edit, value)
            return edit
        return value
    return answer.get("return")


def edit_to_equal(dst: Any, src: Any) -> None:
    """Edits dst (a dict or list) in place to equal src, keeping each dict, and each list of
    the same length, found at the same key or index in both (SPEC.md §3, edit)."""
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
