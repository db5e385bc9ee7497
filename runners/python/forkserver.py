#!/usr/bin/env python3
"""Fork server for the Python adapter (runners/python/README.md "Fork server"), as
multiprocessing's forkserver: one warm parent that has imported toolnexus (0.7 CPU-s, most of
it mcp) and the adapter's kit and areas, and compiled adapter.py (the entry), and forks a fresh
adapter per request, so a replacement costs milliseconds instead of a runtime start.

    forkserver.py SOCKET     listen on the SOCK_SEQPACKET Unix socket SOCKET, print "ready"

The runner (internal/adapter/fork.go) connects once per adapter and sends one packet: JSON
{"env": ["K=V", ...], "cwd": DIR} with five fds (SCM_RIGHTS): the child's stdin, stdout,
stderr, callback pipe (fd 3) and a gate. The child calls setsid, sends {"pid": N} on the
connection (so the runner learns the pid only once the child leads its own process group),
waits for one byte on the gate (the runner puts it in its cgroup first), takes the fds as
0-3, the environment and cwd, and runs adapter.py as __main__. This server reaps it and sends
{"exit": <wait status>}. A refusal is {"error": "..."}: the runner then starts that adapter
plainly. EOF on the server's stdin (the runner is gone) ends the server.

Fresh means fresh: the fork happens before the adapter has done anything but import, in a
process with one thread and no event loop; a server with another thread refuses to fork. The
kit and the areas do nothing on import but define and register: the entry takes stdout and the
callback pipe, and serves, in the child."""
from __future__ import annotations

import fcntl
import json
import os
import selectors
import signal
import socket
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
ADAPTER = os.path.join(HERE, "adapter.py")
NFDS = 5  # stdin, stdout, stderr, callback, gate
MAX_REQUEST = 1 << 20
# The adapter's own imports and the ones its first MCP load makes: importing them here once
# saves each child the time; none starts a thread or an event loop (checked before each fork).
PRELOAD = ("asyncio", "concurrent.futures", "contextlib", "copy", "dataclasses", "importlib.metadata",
           "io", "json", "platform", "typing", "toolnexus", "anyio._backends._asyncio", "httpx",
           "mcp.client.stdio", "mcp.client.sse", "mcp.client.streamable_http", "mcp.client.session")


def preload() -> object:
    import importlib
    import toolnexus  # noqa: F401  a failure here is the adapter's own: the runner starts it plainly
    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError:
            pass  # an older release lacks it: its child imports what it needs
    if HERE not in sys.path:  # the entry and its siblings, as adapter.py finds them
        sys.path.insert(0, HERE)
    try:
        import kit
        kit.load_areas()
    except Exception:  # noqa: BLE001
        pass  # the child meets the same failure in adapter.py, as a plain start would
    with open(ADAPTER, encoding="utf-8") as f:
        return compile(f.read(), ADAPTER, "exec")


def say(conn: socket.socket, obj: dict) -> None:
    try:
        conn.send(json.dumps(obj).encode())
    except OSError:
        pass  # the runner hung up: it kills and judges the child on its own


class Server:
    def __init__(self, path: str) -> None:
        self.lst = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.lst.bind(path)
        self.lst.listen(64)
        self.wake_r, self.wake_w = os.pipe()
        for fd in (self.wake_r, self.wake_w):
            os.set_blocking(fd, False)
        signal.set_wakeup_fd(self.wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)  # a handler, so the wakeup fd is written
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.lst, selectors.EVENT_READ, "accept")
        self.sel.register(self.wake_r, selectors.EVENT_READ, "reap")
        self.sel.register(0, selectors.EVENT_READ, "stdin")
        self.children: dict[int, socket.socket] = {}

    def serve(self):
        """Loops until stdin ends (returns None) or in a fork child (returns its request)."""
        print("ready", flush=True)
        while True:
            for key, _ in self.sel.select(timeout=1.0):
                if key.data == "stdin":
                    if not os.read(0, 4096):
                        return None
                elif key.data == "reap":
                    self.reap()
                elif key.data == "accept":
                    child = self.accept()
                    if child is not None:
                        return child
                else:  # a connection whose runner side hung up
                    self.sel.unregister(key.fileobj)
                    key.fileobj.close()
                    self.children.pop(key.data, None)
            self.reap()  # a SIGCHLD that raced the wakeup

    def reap(self) -> None:
        try:
            while os.read(self.wake_r, 512):
                pass
        except BlockingIOError:
            pass
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            conn = self.children.pop(pid, None)
            if conn is not None:
                say(conn, {"exit": status})
                self.sel.unregister(conn)
                conn.close()

    def accept(self):
        conn, _ = self.lst.accept()
        conn.settimeout(5.0)  # the runner sends its request at once
        fds: list[int] = []
        try:
            msg, fds, _, _ = socket.recv_fds(conn, MAX_REQUEST, NFDS)
            req = json.loads(msg)
            if len(fds) != NFDS or not isinstance(req.get("env"), list):
                raise ValueError(f"a request needs {NFDS} fds and an env, got {len(fds)} fds")
        except (OSError, ValueError) as e:
            say(conn, {"error": f"bad request: {e}"})
            conn.close()
            for fd in fds:
                os.close(fd)
            return None
        threads = threading.enumerate()
        if len(threads) > 1:
            say(conn, {"error": "the fork server has threads: " + ", ".join(t.name for t in threads)})
            conn.close()
            for fd in fds:
                os.close(fd)
            return None
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            pid = os.fork()
        except OSError as e:
            say(conn, {"error": f"fork: {e}"})
            conn.close()
            for fd in fds:
                os.close(fd)
            return None
        if pid == 0:
            return conn, fds, req
        for fd in fds:
            os.close(fd)
        conn.settimeout(None)
        self.children[pid] = conn
        self.sel.register(conn, selectors.EVENT_READ, pid)
        return None

    def leave(self, keep: socket.socket) -> None:
        """In the child: drop everything of the server's but the one connection."""
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        self.sel.close()
        self.lst.close()
        for conn in self.children.values():
            conn.close()
        os.close(self.wake_r)
        os.close(self.wake_w)


def become_adapter(conn: socket.socket, fds: list[int], req: dict, code: object) -> None:
    os.setsid()  # its own session and process group: the runner kills the group
    say(conn, {"pid": os.getpid()})
    conn.close()
    gate = fds[4]
    if os.read(gate, 1) != b"g":  # the runner gave up on it before it ran
        os._exit(0)
    # Above the four targets first, so that no received fd is overwritten before it is moved.
    high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in fds[:4]]
    for fd in fds:
        os.close(fd)
    for target, fd in enumerate(high):
        os.dup2(fd, target)  # inheritable, as a plain start's fds 0-3 are
        os.close(fd)
    os.environ.clear()
    os.environ.update(kv.split("=", 1) for kv in req["env"] if "=" in kv)
    if req.get("cwd"):
        os.chdir(req["cwd"])
    sys.argv = [ADAPTER]
    import types
    main = types.ModuleType("__main__")
    main.__file__ = ADAPTER
    main.__builtins__ = __builtins__
    sys.modules["__main__"] = main
    exec(code, main.__dict__)


def run() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: forkserver.py SOCKET")
    code = preload()
    server = Server(sys.argv[1])
    child = server.serve()
    if child is None:
        return
    conn, fds, req = child
    server.leave(conn)
    del server
    become_adapter(conn, fds, req, code)


if __name__ == "__main__":
    run()
