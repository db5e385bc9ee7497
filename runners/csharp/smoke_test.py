#!/usr/bin/env python3
"""Smoke test for the C# adapter's relay. It needs no pytest and no package beyond Python 3.

    python3 runners/csharp/smoke_test.py          # runs ./prepare to get the adapter command
    ADAPTER_CMD='["dotnet","/.../Adapter.dll"]' python3 runners/csharp/smoke_test.py

It starts the adapter with the callback pipe on fd 3 (CONFORMANCE_CALLBACK_FD=3), as the runner
does, answers its callbacks, and drives one tool-calling run against a tiny OpenAI-style server on
127.0.0.1: a body transform in place and not, a BeforeLLM hook, a recording HTTP client, a host
tool, a refused transform (the relayed error) and the host store. Without .NET, prepare exits 3:
the test then prints "0 passed, 0 failed" and exits 0. Unverified here (README.md): .NET cannot
be installed where it was written, so it has only been run against a stand-in adapter.
"""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
CALL_TIMEOUT_S = 60.0
passed, failed = 0, 0


def check(name: str, ok: bool, detail: Any = "") -> None:
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name}: {detail}", file=sys.stderr)


class FakeLLM(BaseHTTPRequestHandler):
    """Turn 1 calls the tool echo, turn 2 answers "done"; every body is recorded."""

    bodies: list[dict] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        FakeLLM.bodies.append(body)
        if any(m.get("role") == "tool" for m in body.get("messages", [])):
            msg: dict[str, Any] = {"role": "assistant", "content": "done"}
        else:
            call = {"id": "c1", "type": "function", "function": {"name": "echo", "arguments": '{"text":"hi"}'}}
            msg = {"role": "assistant", "content": None, "tool_calls": [call]}
        out = json.dumps({"id": "r", "object": "chat.completion", "model": "m",
                          "choices": [{"index": 0, "message": msg, "finish_reason": "stop"}],
                          "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def do_GET(self) -> None:  # the http tool's endpoint: JSON naming the path and a header
        out = json.dumps({"path": self.path, "auth": self.headers.get("X-Auth")}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def log_message(self, *args: Any) -> None:
        pass


class Adapter:
    """The adapter process: requests on stdin, lines on stdout, callback answers on fd 3."""

    def __init__(self, cmd: list[str], host) -> None:
        r, self.answers = os.pipe()

        def callback_fd() -> None:  # the read end becomes fd 3 in the child, inheritable
            os.dup2(r, 3)
            os.set_inheritable(3, True)

        env = dict(os.environ, CONFORMANCE_CALLBACK_FD="3", TNX_PARENT="1", TNX_SECRET="s3cr3t-9f2c")  # as the runner sets
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
                                     preexec_fn=callback_fd, close_fds=False)
        os.close(r)
        self.host, self.next_id, self.seen = host, 0, []
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def call(self, op: str, args: dict | None = None) -> dict:
        self.next_id += 1
        req = {"id": self.next_id, "op": op, "args": args or {}}
        self.proc.stdin.write((json.dumps(req) + "\n").encode())
        self.proc.stdin.flush()
        while True:
            line = self.lines.get(timeout=CALL_TIMEOUT_S)
            if line is None:
                raise RuntimeError(f"adapter closed stdout during {op}")
            msg = json.loads(line)
            if "callback" not in msg:
                if msg.get("id") != self.next_id:
                    raise RuntimeError(f"{op}: response for id {msg.get('id')}")
                return msg
            self.seen.append((msg["fn"], msg["args"]))
            answer = {"callback": msg["callback"], **self.host(msg["fn"], msg["args"])}
            os.write(self.answers, (json.dumps(answer) + "\n").encode())


NATIVE_VALUES = {"n_str": "plain", "n_obj": {"b": 1, "a": [True, None]},
                 "n_res": {"output": "r", "isError": True, "metadata": {"k": 1}}}


def host(fn: str, args: dict) -> dict:
    """The steps' side of the host functions for this test."""
    if fn == "bodyTransform":
        body = dict(args["body"])
        if args["client"] == "refuse":
            return {"ok": False, "error": "host: refused"}
        if any(m.get("role") == "tool" for m in body.get("messages", [])):
            return {"ok": True, "value": {**body, "y_smoke": 2}}  # a new object
        return {"ok": True, "value": {**body, "x_smoke": 1}, "inPlace": True}
    if fn == "tool" and args["name"] == "n_fail":
        return {"ok": False, "error": "host: native refused"}
    if fn == "tool" and args["name"] in NATIVE_VALUES:
        return {"ok": True, "value": NATIVE_VALUES[args["name"]]}
    if fn == "tool":
        return {"ok": True, "value": "echoed:" + str(args["input"].get("text"))}
    return {"ok": True, "value": None}  # beforeLLM: no override; http: just record


def adapter_cmd() -> list[str] | None:
    if os.environ.get("ADAPTER_CMD"):
        return json.loads(os.environ["ADAPTER_CMD"])
    p = subprocess.run([os.path.join(HERE, "prepare")], capture_output=True, text=True)
    if p.returncode == 3:
        print("skipped: " + p.stderr.strip().splitlines()[-1], file=sys.stderr)
        return None
    if p.returncode != 0:
        raise SystemExit("prepare failed:\n" + p.stderr)
    return json.loads(p.stdout.strip().splitlines()[-1])


def main() -> int:
    cmd = adapter_cmd()
    if cmd is None:
        print("0 passed, 0 failed")
        return 0
    llm = ThreadingHTTPServer(("127.0.0.1", 0), FakeLLM)
    threading.Thread(target=llm.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{llm.server_address[1]}"
    a = Adapter(cmd, host)
    try:
        hello = a.call("hello")
        check("hello", hello["ok"] and hello["result"]["port"] == "csharp", hello)
        client = {"baseUrl": base, "style": "openai", "model": "m", "apiKey": "k"}
        r = a.call("client.create", {"handle": "c1", **client, "bodyTransform": True, "beforeLLM": True,
                                     "httpClient": "recording"})
        check("client.create", r["ok"], r)
        r = a.call("toolkit.create", {"handle": "t1", "extraTools": [
            {"name": "echo", "description": "echoes", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}]})
        check("toolkit.create", r["ok"] and "echo" in (r["result"]["tools"] or []), r)

        run = a.call("client.run", {"client": "c1", "toolkit": "t1", "prompt": "hi"})
        res = run.get("result") or {}
        check("run ok", run["ok"], run)
        check("run report", res.get("text") == "done" and res.get("toolCalls") == ["echo"] and res.get("turns") == 2, res)
        check("run report holds only what the library returned", set(res) == {"text", "turns", "toolCalls", "calls"}, res)
        check("run report calls", res.get("calls") == [{"name": "echo", "args": {"text": "hi"}, "output": "echoed:hi", "isError": False}], res)
        fns = [fn for fn, _ in a.seen]
        check("every host function called back", {"bodyTransform", "beforeLLM", "http", "tool"} <= set(fns), fns)
        check("one http callback per LLM request", fns.count("http") == len(FakeLLM.bodies) == 2, (fns, len(FakeLLM.bodies)))
        check("tool input relayed", ("tool", {"toolkit": "t1", "name": "echo", "input": {"text": "hi"}}) in a.seen, a.seen)
        b1, b2 = (FakeLLM.bodies + [{}, {}])[:2]
        check("in-place transform sent", b1.get("x_smoke") == 1 and "y_smoke" not in b1, b1)
        check("new-object transform sent", b2.get("y_smoke") == 2 and "x_smoke" not in b2, b2)
        check("tool output reached the LLM", any(m.get("role") == "tool" and m.get("content") == "echoed:hi"
                                                 for m in b2.get("messages", [])), b2)

        a.call("client.create", {"handle": "refuse", **client, "bodyTransform": True})
        r = a.call("client.run", {"client": "refuse", "prompt": "hi"})
        err = r.get("error") or {}
        types = [e.get("type") for e in err.get("chain") or []]
        check("refused transform relayed", not r["ok"] and "kind" not in err and "ConformanceAdapter.HostError" in types
              and any(e.get("message") == "host: refused" for e in err["chain"]), r)

        a.call("client.create", {"handle": "c3", **client, "store": "host"})
        r = a.call("store.identity", {"client": "c3"})
        check("store identity", r["ok"] and r["result"] == {"same": True}, r)
        a.call("store.save", {"client": "c3", "id": "u", "messages": [{"role": "user", "content": "x"}]})
        r = a.call("store.get", {"client": "c3", "id": "u"})
        check("store round trip", r["ok"] and r["result"]["messages"] == [{"role": "user", "content": "x"}], r)
        r = a.call("store.get", {"client": "c3", "id": "nobody"})
        check("store null not invented", r["ok"] and r["result"]["messages"] is None, r)

        # wave 1: native tools (each returns kind, a throw), an http tool, describe, execute, adapters, sanitize
        extra = [{"name": "n_str", "description": "s", "kind": "native"},
                 {"name": "n_obj", "description": "o", "kind": "native", "returns": "object",
                  "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}},
                 {"name": "n_res", "description": "r", "kind": "native", "returns": "result"},
                 {"name": "n_fail", "description": "f", "kind": "native"},
                 {"name": "h.get", "description": "h", "kind": "http", "method": "GET", "url": base + "/h/{id}",
                  "headers": {"X-Auth": "${TNX_SECRET}"}, "timeoutMs": 5000}]
        r = a.call("toolkit.create", {"handle": "w1", "extraTools": extra})
        check("toolkit.create native + http", r["ok"] and r["result"]["tools"] == ["n_str", "n_obj", "n_res", "n_fail", "h.get"], r)
        r = a.call("toolkit.describe", {"toolkit": "w1"})
        tools = (r.get("result") or {}).get("tools") or []
        check("toolkit.describe", [(t["name"], t["source"]) for t in tools] == [("n_str", "native"), ("n_obj", "native"),
              ("n_res", "native"), ("n_fail", "native"), ("h.get", "http")]
              and tools[0]["inputSchema"] == {"type": "object", "properties": {}, "additionalProperties": False}, r)
        a.seen.clear()
        r = a.call("tool.execute", {"toolkit": "w1", "name": "n_str", "args": {"x": 1}})
        check("tool.execute native string", r.get("result") == {"output": "plain", "isError": False}
              and a.seen == [("tool", {"toolkit": "w1", "name": "n_str", "input": {"x": 1}})], (r, a.seen))
        r = a.call("tool.execute", {"toolkit": "w1", "name": "n_obj"})
        check("tool.execute native object", r.get("result") == {"output": '{"b":1,"a":[true,null]}', "isError": False}, r)
        r = a.call("tool.execute", {"toolkit": "w1", "name": "n_res", "args": None})
        check("tool.execute native result", r.get("result") == {"output": "r", "isError": True, "metadata": {"k": 1}}, r)
        r = a.call("tool.execute", {"toolkit": "w1", "name": "n_fail", "args": {}})
        check("tool.execute native throw", r.get("result") == {"output": "host: native refused", "isError": True}, r)
        r = a.call("tool.execute", {"toolkit": "w1", "name": "h.get", "args": {"id": "a b", "n": 2}})
        res = r.get("result") or {}
        check("tool.execute http GET", res.get("isError") is False and res.get("metadata") == {"status": 200}
              and json.loads(res.get("output") or "{}") == {"path": "/h/a%20b?n=2", "auth": "s3cr3t-9f2c"}, r)
        r = a.call("tool.execute", {"toolkit": "w1", "name": "nope"})
        check("tool.execute unknown name", r.get("result") == {"output": "Unknown tool: nope", "isError": True}, r)
        r = a.call("adapters", {"toolkit": "w1"})
        res = r.get("result") or {}
        check("adapters", r["ok"] and len(res.get("openai") or []) == 5 and len(res.get("anthropic") or []) == 5
              and len((res.get("gemini") or [{}])[0].get("functionDeclarations") or []) == 5, r)
        r = a.call("sanitize", {"value": "a.b c\U0001F680-_9"})
        check("sanitize", r["ok"] and isinstance(r["result"]["value"], str), r)
        print(f"     sanitize gave {r.get('result')}")
        a.call("toolkit.close", {"toolkit": "w1"})

        r = a.call("shutdown")
        check("shutdown", r["ok"] and a.proc.wait(timeout=10) == 0, r)
    except Exception as e:  # a broken adapter fails the test, never hangs it
        check("protocol", False, repr(e))
    finally:
        if a.proc.poll() is None:
            a.proc.kill()
        llm.shutdown()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
