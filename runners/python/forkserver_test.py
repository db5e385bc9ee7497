#!/usr/bin/env python3
"""Smoke test for the Python fork server (forkserver.py). It needs no pytest.

    python3 runners/python/forkserver_test.py     # runs ./prepare to get the venv's python
    ADAPTER_CMD='["/…/python","/…/adapter.py"]' python3 runners/python/forkserver_test.py

It plays the runner's side of internal/adapter/fork_linux.go: it starts the server, makes each
child's pipes, passes them over the socket and opens the gate. It checks what a fork must be
(its own session, the cwd and environment it was given, its exit reported and reaped, a child
never let through exits, a bad request refused, EOF on stdin ends the server), and that a forked
adapter calls a host function back through its own pipes. The adapter itself is checked by the
runner's `conformance smoke --ports python`. Every wait has a deadline."""
from __future__ import annotations

import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

DEADLINE_S = 30.0
failures: list[str] = []


def check(name: str, cond: bool, detail: object = "") -> None:
    print(("ok   " if cond else "FAIL ") + name + ("" if cond else f": {detail}"), flush=True)
    if not cond:
        failures.append(name)


def read_line(fd: int, timeout: float) -> bytes:
    out = b""
    end = time.monotonic() + timeout
    while not out.endswith(b"\n"):
        left = end - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            raise TimeoutError(f"no line within {timeout}s (got {out!r})")
        chunk = os.read(fd, 1)
        if not chunk:
            break
        out += chunk
    return out


class Server:
    def __init__(self, python: str) -> None:
        self.dir = tempfile.mkdtemp(prefix="tnx-fork-")
        self.sock = os.path.join(self.dir, "s")
        self.p = subprocess.Popen([python, os.path.join(HERE, "forkserver.py"), self.sock], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, start_new_session=True)
        assert self.p.stdout is not None
        line = read_line(self.p.stdout.fileno(), 60.0)
        if line.strip() != b"ready":
            raise RuntimeError(f"fork server said {line!r}")

    def request(self, payload: bytes, fds: list[int]) -> tuple[socket.socket, dict]:
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        conn.settimeout(DEADLINE_S)
        conn.connect(self.sock)
        socket.send_fds(conn, [payload], fds)
        return conn, json.loads(conn.recv(8192))

    def stop(self) -> int:
        assert self.p.stdin is not None
        self.p.stdin.close()
        try:
            return self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.p.pid, signal.SIGKILL)
            return self.p.wait(timeout=5)


class ForkedProc:
    """A forked adapter: its pipes, and its exit as the server reports it."""

    def __init__(self, server: Server, env: dict[str, str], cwd: str, open_gate: bool = True) -> None:
        in_r, in_w = os.pipe()
        out_r, out_w = os.pipe()
        cb_r, cb_w = os.pipe()
        gate_r, gate_w = os.pipe()
        req = json.dumps({"env": [f"{k}={v}" for k, v in env.items()], "cwd": cwd}).encode()
        self.conn, answer = server.request(req, [in_r, out_w, sys.stderr.fileno(), cb_r, gate_r])
        for fd in (in_r, out_w, cb_r, gate_r):
            os.close(fd)
        self.pid = answer.get("pid", 0)
        self.status: int | None = None
        if not self.pid:
            raise RuntimeError(f"no pid: {answer}")
        if open_gate:
            os.write(gate_w, b"g")
        os.close(gate_w)
        self.stdin = os.fdopen(in_w, "wb")
        self.stdout = os.fdopen(out_r, "rb")
        self.answers = os.fdopen(cb_w, "wb", buffering=0)

    def wait(self, timeout: float | None = None) -> int:
        if self.status is None:
            self.conn.settimeout(timeout if timeout is not None else DEADLINE_S)
            try:
                msg = json.loads(self.conn.recv(8192))
            except socket.timeout:
                raise subprocess.TimeoutExpired("forked adapter", timeout or DEADLINE_S)
            self.status = msg["exit"]
            self.conn.close()
        return os.waitstatus_to_exitcode(self.status)


def adapter_env() -> dict[str, str]:
    return dict(os.environ, CONFORMANCE_CALLBACK_FD="3", TNX_PARENT="1", TNX_SECRET="s3cr3t-9f2c")


def adapter_cmd() -> list[str]:
    """ADAPTER_CMD, else what ./prepare prints last (the venv's python and adapter.py)."""
    env_cmd = os.environ.get("ADAPTER_CMD")
    if env_cmd:
        return json.loads(env_cmd)
    p = subprocess.run([os.path.join(HERE, "prepare")], capture_output=True, text=True, timeout=1200)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        raise SystemExit(f"prepare exited {p.returncode}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def host_tool_round_trip(p: ForkedProc) -> object:
    """A host tool executed on a forked adapter: its callback comes out on the child's stdout and
    the runner's answer goes in on its callback pipe; returns what tool.execute reported."""
    echo = {"name": "echo", "description": "echo", "inputSchema": {"type": "object"}}
    for line in ({"id": 1, "op": "toolkit.create", "args": {"handle": "t", "extraTools": [echo]}},
                 {"id": 2, "op": "tool.execute", "args": {"toolkit": "t", "name": "echo", "args": {}}}):
        p.stdin.write((json.dumps(line) + "\n").encode())
        p.stdin.flush()
        while True:
            msg = json.loads(read_line(p.stdout.fileno(), DEADLINE_S))
            if "callback" in msg:
                p.answers.write((json.dumps({"callback": msg["callback"], "return": "pong"}) + "\n").encode())
                continue
            break
    return msg


# The adapter is an entry, a kit and area files: the warm parent must hold them all (every
# area_*.py in the folder), and no thread.
PRELOAD_CHECK = """
import os, sys, threading, forkserver
forkserver.preload()
areas = [f[:-3] for f in os.listdir(".") if f.startswith("area_") and f.endswith(".py")]
missing = [m for m in ["kit", "kit_wire"] + areas if m not in sys.modules] + ([] if areas else ["area_*"])
print("ok" if not missing and threading.active_count() == 1 else f"missing {missing}, {threading.active_count()} threads")
"""


def main() -> int:
    python = adapter_cmd()[0]
    pre = subprocess.run([python, "-c", PRELOAD_CHECK], cwd=HERE, capture_output=True, text=True, timeout=120)
    check("the server preloads the kit and every area, and starts no thread",
          pre.returncode == 0 and pre.stdout.strip() == "ok", pre.stdout + pre.stderr[-2000:])
    server = Server(python)
    try:
        cwd = tempfile.mkdtemp(prefix="tnx-fork-cwd-")
        env = adapter_env()
        p = ForkedProc(server, env, cwd)
        check("the child leads its own session", os.getsid(p.pid) == p.pid, (os.getsid(p.pid), p.pid))
        p.stdin.write(b'{"id":1,"op":"hello"}\n')
        p.stdin.flush()
        hello = json.loads(read_line(p.stdout.fileno(), DEADLINE_S))
        check("a forked adapter says hello", hello.get("ok") and hello["result"].get("port") == "python", hello)
        # after the hello: before its gate opened the child was still in the server's cwd
        check("the child runs in the cwd it was given", os.readlink(f"/proc/{p.pid}/cwd") == os.path.realpath(cwd))
        p.stdin.write(b'{"id":2,"op":"shutdown"}\n')
        p.stdin.flush()
        check("its exit is reported (0 after shutdown)", p.wait(10) == 0, p.status)
        time.sleep(0.05)
        check("and it was reaped", not os.path.exists(f"/proc/{p.pid}"))

        shut = ForkedProc(server, adapter_env(), cwd, open_gate=False)
        check("a child never let through exits at once", shut.wait(10) == 0, shut.status)

        k = ForkedProc(server, adapter_env(), cwd)
        os.killpg(k.pid, signal.SIGKILL)
        check("a killed child's signal is reported", k.wait(10) == -signal.SIGKILL, k.status)

        r, w = os.pipe()
        conn, answer = server.request(b'{"env": []}', [r])
        os.close(r)
        os.close(w)
        conn.close()
        check("a request with too few fds is refused", "error" in answer, answer)

        h = ForkedProc(server, adapter_env(), cwd)
        res = host_tool_round_trip(h)
        check("a forked adapter calls a host function back", res.get("ok") and res["result"].get("output") == "pong", res)
        h.stdin.close()
        h.wait(10)
    finally:
        code = server.stop()
    check("EOF on stdin ends the server", code == 0, code)
    print(f"{'FAIL' if failures else 'ok'}: fork server smoke, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
