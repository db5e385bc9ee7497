#!/usr/bin/env python3
"""Smoke test for the Python adapter. It needs no pytest.

    python3 runners/python/smoke_test.py          # runs ./prepare to get the adapter command
    ADAPTER_CMD='["/…/python","/…/adapter.py"]' python3 runners/python/smoke_test.py

It starts the adapter as a subprocess with a callback pipe and plays the runner: it talks the
JSON-lines protocol, answers the host functions' callbacks (body transform, BeforeLLM hook, the
host tool `echo`, the recording HTTP client) and judges relayed errors with errors.json. It
drives client.run / client.ask against a tiny OpenAI/Anthropic-style HTTP server on 127.0.0.1,
in both the non-stream and the SSE form: the first turn calls `echo`, the second answers in
text. It loads a tiny stdio MCP server written with the `mcp` package from the adapter's venv.
It checks the adapter's answers, its callbacks and what the server recorded, prints
"N passed, N failed" and exits non-zero on any failure. Everything binds 127.0.0.1 only, and
every wait has a deadline.
"""
from __future__ import annotations

import contextlib
import copy
import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
CALL_TIMEOUT_S = 30.0

# --- a stdio MCP server (run as: <venv python> smoke_test.py --mcp-server) ----------------------
if len(sys.argv) > 1 and sys.argv[1] == "--mcp-server":
    from mcp.server.fastmcp import FastMCP

    srv = FastMCP("smoke")

    @srv.tool(name="a", description="tool a")
    def tool_a(x: str = "") -> str:
        return "a:" + x

    @srv.tool(name="get.balance", description="balance")
    def tool_balance() -> str:
        return "42"

    srv.run("stdio")
    sys.exit(0)


# --- fake OpenAI-style LLM -----------------------------------------------------------------------
class FakeLLM:
    """POST <prefix>/chat/completions. Turn 1 of each conversation calls `echo` when the
    request carries tools and no tool result yet; otherwise it answers text. It answers SSE
    when the body has stream:true."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        outer = self

        class H(BaseHTTPRequestHandler):
            def log_message(self, *a: Any) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802 — the http tool's endpoint: JSON echoing path and query
                with outer.lock:
                    outer.requests.append({"path": self.path, "headers": dict(self.headers), "body": None})
                self._send("application/json", json.dumps({"path": self.path, "auth": self.headers.get("X-Auth")}).encode())

            def do_POST(self) -> None:  # noqa: N802
                n = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(n)
                body = json.loads(raw or b"{}")
                with outer.lock:
                    outer.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                if self.path.endswith("/v1/messages"):
                    self._anthropic(body)
                    return
                if not self.path.endswith("/chat/completions"):
                    self.send_response(404)
                    self.end_headers()
                    return
                msgs = body.get("messages") or []
                has_tool_result = any(isinstance(m, dict) and m.get("role") == "tool" for m in msgs)
                call_tool = bool(body.get("tools")) and not has_tool_result
                if body.get("stream"):
                    self._sse(call_tool)
                else:
                    self._json(call_tool)

            def _send(self, ctype: str, out: bytes) -> None:
                self.send_response(200)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

            def _anthropic(self, body: dict[str, Any]) -> None:
                msgs = body.get("messages") or []
                has_result = any(isinstance(m.get("content"), list) and any(
                    isinstance(b, dict) and b.get("type") == "tool_result" for b in m["content"]) for m in msgs)
                call_tool = bool(body.get("tools")) and not has_result
                usage = {"input_tokens": 3, "output_tokens": 2}
                if not body.get("stream"):
                    content = ([{"type": "tool_use", "id": "tu_1", "name": "echo", "input": {"text": "hi"}}]
                               if call_tool else [{"type": "text", "text": "done"}])
                    out = {"id": "m", "type": "message", "role": "assistant", "content": content,
                           "stop_reason": "tool_use" if call_tool else "end_turn", "usage": usage}
                    self._send("application/json", json.dumps(out).encode())
                    return
                evs: list[dict[str, Any]] = [{"type": "message_start", "message": {"usage": usage}}]
                if call_tool:
                    evs += [{"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "tu_1", "name": "echo"}},
                            {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\"text\":\"hi\"}"}}]
                else:
                    evs += [{"type": "content_block_start", "index": 0, "content_block": {"type": "text"}},
                            {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "done"}}]
                evs += [{"type": "content_block_stop", "index": 0},
                        {"type": "message_delta", "delta": {"stop_reason": "tool_use" if call_tool else "end_turn"}, "usage": {"output_tokens": 2}},
                        {"type": "message_stop"}]
                data = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in evs)
                self._send("text/event-stream", data.encode())

            def _json(self, call_tool: bool) -> None:
                if call_tool:
                    msg = {"role": "assistant", "content": None, "tool_calls": [
                        {"id": "call_1", "type": "function", "function": {"name": "echo", "arguments": "{\"text\":\"hi\"}"}}]}
                else:
                    msg = {"role": "assistant", "content": "done"}
                out = json.dumps({"id": "x", "object": "chat.completion", "choices": [
                    {"index": 0, "message": msg, "finish_reason": "tool_calls" if call_tool else "stop"}],
                    "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

            def _sse(self, call_tool: bool) -> None:
                if call_tool:
                    chunks = [{"choices": [{"index": 0, "delta": {"tool_calls": [
                        {"index": 0, "id": "call_1", "type": "function", "function": {"name": "echo", "arguments": ""}}]}}]},
                        {"choices": [{"index": 0, "delta": {"tool_calls": [
                            {"index": 0, "function": {"arguments": "{\"text\":\"hi\"}"}}]}}]}]
                else:
                    chunks = [{"choices": [{"index": 0, "delta": {"content": "do"}}]},
                              {"choices": [{"index": 0, "delta": {"content": "ne"}}]}]
                chunks.append({"choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}})
                data = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
                out = data.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Content-Length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
        self.thread.start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def bodies(self, prefix: str) -> list[dict[str, Any]]:
        with self.lock:
            return [r["body"] for r in self.requests if r["path"].startswith(prefix + "/")]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


# --- adapter process, with the runner's side of the callback pipe --------------------------------
class Adapter:
    """Starts the adapter with a callback pipe (CONFORMANCE_CALLBACK_FD names its read end in
    the child) and answers every callback line with self.answer(fn, args), as the runner does."""

    def __init__(self, cmd: list[str]) -> None:
        r, w = os.pipe()
        env = dict(os.environ, CONFORMANCE_CALLBACK_FD=str(r), TNX_PARENT="1", TNX_SECRET="s3cr3t-9f2c")  # as the runner sets
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=sys.stderr,
                                  start_new_session=True, pass_fds=(r,), env=env)
        os.close(r)
        self.answers = os.fdopen(w, "wb", buffering=0)
        self.answer = lambda fn, args: {"ok": True, "value": None}
        self.callbacks: list[dict[str, Any]] = []  # every callback of the last call
        self.last_callback = 0
        self.out: queue.Queue = queue.Queue()
        self.next_id = 0
        self.validated = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.p.stdout is not None
        for line in self.p.stdout:
            self.out.put(line)
        self.out.put(None)

    def call(self, op: str, args: dict[str, Any] | None = None, timeout: float = CALL_TIMEOUT_S) -> dict[str, Any]:
        self.next_id += 1
        req: dict[str, Any] = {"id": self.next_id, "op": op}
        if args is not None:
            req["args"] = args
        SCHEMA.validate("request", req)
        assert self.p.stdin is not None
        self.p.stdin.write((json.dumps(req) + "\n").encode())
        self.p.stdin.flush()
        self.callbacks = []
        while True:
            line = self.out.get(timeout=timeout)
            if line is None:
                raise RuntimeError("adapter closed stdout")
            msg = json.loads(line)
            if "callback" not in msg:
                break
            SCHEMA.validate("callback", msg)
            assert msg["callback"] == self.last_callback + 1, f"callbacks are numbered in order: {msg}"
            self.last_callback = msg["callback"]
            self.callbacks.append(msg)
            ans = {"callback": msg["callback"], **self.answer(msg["fn"], msg["args"])}
            SCHEMA.validate("callbackAnswer", ans)
            self.answers.write((json.dumps(ans) + "\n").encode())
        check_response(msg, self.next_id)
        SCHEMA.validate("response", msg)
        if msg["ok"]:
            SCHEMA.validate(RESULT_DEFS.get(op, "result.empty"), msg["result"])
        self.validated += 1
        return msg

    def saw(self, fn: str) -> list[dict[str, Any]]:
        return [c["args"] for c in self.callbacks if c["fn"] == fn]

    def stop(self) -> int:
        with contextlib.suppress(OSError):
            if self.p.stdin:
                self.p.stdin.close()
        try:
            return self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.p.pid, 9)
            return self.p.wait(timeout=5)


SCHEMA_PATH = os.path.join(HERE, "..", "..", "schema", "protocol.schema.json")
SERVED_OPS = ("hello", "client.create", "client.run", "client.ask", "store.get", "store.save", "store.identity",
              "toolkit.create", "toolkit.close", "mcp.load", "mcp.list", "toolkit.describe", "tool.execute",
              "adapters", "sanitize", "shutdown")  # what this adapter serves: kit, llm, store, tools, mcp
RESULT_DEFS = {
    "hello": "result.hello", "client.run": "result.run", "client.ask": "result.run",
    "store.get": "result.store.get", "store.identity": "result.store.identity",
    "toolkit.create": "result.tools", "mcp.load": "result.tools", "mcp.list": "result.mcp.list",
    "toolkit.describe": "result.describe", "tool.execute": "result.execute", "adapters": "result.adapters",
    "sanitize": "result.sanitize",
}


class SchemaCheck:
    """Full validation against schema/protocol.schema.json when `jsonschema` can be imported
    (it is in the adapter's venv, as a dependency of mcp). Otherwise only check_response runs."""

    def __init__(self) -> None:
        self.ok = False
        try:
            import jsonschema  # type: ignore

            with open(SCHEMA_PATH) as f:
                schema = json.load(f)
            self._v = {
                name: jsonschema.Draft202012Validator({"$ref": f"#/$defs/{name}", "$defs": schema["$defs"]})
                for name in ["request", "response", "callback", "callbackAnswer", *set(RESULT_DEFS.values()), "result.empty"]
            }
            self.ok = True
        except Exception as e:  # noqa: BLE001
            print(f"     schema validation skipped: {e!r}")

    def validate(self, name: str, obj: Any) -> None:
        if self.ok:
            errs = [e.message for e in self._v[name].iter_errors(obj)]
            assert not errs, f"{name} violates the schema: {errs}: {json.dumps(obj)[:500]}"


SCHEMA = SchemaCheck()


def check_response(resp: dict[str, Any], rid: int) -> None:
    """The response-side rules of schema/protocol.schema.json that matter here."""
    assert set(resp) <= {"id", "ok", "result", "error", "warnings", "crashes"}, f"extra keys: {resp}"
    assert resp.get("id") == rid, resp
    assert isinstance(resp.get("ok"), bool), resp
    assert isinstance(resp.get("warnings"), list) and all(isinstance(w, str) for w in resp["warnings"]), resp
    assert "crashes" not in resp, f"the port crashed: {resp['crashes']}"
    if resp["ok"]:
        assert isinstance(resp.get("result"), dict) and "error" not in resp, resp
        return
    err = resp.get("error")
    assert isinstance(err, dict) and "result" not in resp and isinstance(err.get("message"), str), resp
    assert set(err) <= {"kind", "message", "type", "chain"}, resp
    if "kind" in err:  # the adapter's own answer carries no type
        assert err["kind"] in ("unsupported", "failed") and "type" not in err, resp
    else:
        assert err.get("type") and err.get("chain") and err["chain"][0]["type"] == err["type"], resp


# errors.json, judged as internal/errkind does: the first rule one chain entry meets wins.
with open(os.path.join(HERE, "errors.json")) as _f:
    ERROR_RULES = json.load(_f)["rules"]


def judged(op: str, resp: dict[str, Any]) -> str:
    err = resp.get("error") or {}
    if "kind" in err:
        return err["kind"]
    chain = err.get("chain") or [{"type": err.get("type", ""), "message": err.get("message", "")}]
    for rule in ERROR_RULES:
        if rule.get("ops") and op not in rule["ops"]:
            continue
        for e in chain:
            names = {e["type"], *e.get("is", [])}
            if (not rule.get("is") or names & set(rule["is"])) and (
                    not rule.get("message") or re.search(rule["message"], e["message"])):
                return rule["kind"]
    return "failed"


# --- the runner's host functions, as the steps would decide them --------------------------------
def last_user(msgs: list[dict[str, Any]]) -> int:
    return max((i for i, m in enumerate(msgs) if m.get("role") == "user"), default=-1)


def shaping(fn: str, args: dict[str, Any]) -> dict[str, Any]:
    """A transform that drops chat_template_kwargs, adds a key and appends to the last user
    message's string content; a hook that rewrites it; the tool answers "echoed"."""
    if fn == "bodyTransform":
        body = {k: v for k, v in args["body"].items() if k != "chat_template_kwargs"}
        body["injected"] = "yes"
        msgs = copy.deepcopy(body.get("messages") or [])
        i = last_user(msgs)
        if i >= 0 and isinstance(msgs[i].get("content"), str):
            msgs[i]["content"] += " /nothink"
        body["messages"] = msgs
        return {"ok": True, "value": body, "inPlace": False}
    if fn == "beforeLLM" and args["turn"] == 0:
        msgs = copy.deepcopy(args["messages"])
        msgs[last_user(msgs)]["content"] = "rewritten"
        return {"ok": True, "value": {"messages": msgs}}
    if fn == "tool":
        return {"ok": True, "value": "echoed"}
    return {"ok": True, "value": None}


# --- tests ---------------------------------------------------------------------------------------
passed = 0
failed = 0


def check(name: str, cond: bool, detail: Any = "") -> None:
    global passed, failed
    if cond:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name}: {detail}")


def adapter_cmd() -> list[str]:
    env_cmd = os.environ.get("ADAPTER_CMD")
    if env_cmd:
        return json.loads(env_cmd)
    p = subprocess.run([os.path.join(HERE, "prepare")], capture_output=True, text=True, timeout=1200)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        raise SystemExit(f"prepare exited {p.returncode}")
    return json.loads(p.stdout.strip().splitlines()[-1])


ECHO = {"name": "echo", "description": "echo text",
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}


def client_args(handle: str, base: str, **kw: Any) -> dict[str, Any]:
    return {"handle": handle, "baseUrl": base, "style": "openai", "model": "m", "apiKey": "k", **kw}


def main() -> int:
    cmd = adapter_cmd()
    llm = FakeLLM()
    ad = Adapter(cmd)
    tmp = tempfile.mkdtemp(prefix="tnx-smoke-")
    try:
        r = ad.call("hello")
        res = r.get("result", {})
        check("hello", r["ok"] and res.get("port") == "python" and res.get("library") == "toolnexus"
              and res.get("version") and res.get("runtime", "").startswith("CPython 3.")
              and "client.run" in res.get("ops", []), r)
        print(f"     {res.get('library')} {res.get('version')} on {res.get('runtime')}")
        # every area file registered its ops, and hello lists them in the schema's order, as it always has
        with open(SCHEMA_PATH) as f:
            schema_ops = json.load(f)["$defs"]["request"]["properties"]["op"]["enum"]
        ops = res.get("ops") or []
        check("hello lists every area's ops, in the schema's order",
              ops == [op for op in schema_ops if op in ops] and not set(SERVED_OPS) - set(ops), ops)

        # 1. request shaping, non-stream, one host tool, recording transport, host store
        ad.answer = shaping
        r = ad.call("client.create", client_args(
            "c1", llm.base + "/s/1", bodyTransform=True, beforeLLM=True, httpClient="recording", store="host",
            requestParams={"temperature": 0.42, "chat_template_kwargs": {"enable_thinking": False}, "stream": True}))
        check("client.create", r["ok"] and r["result"] == {}, r)
        r = ad.call("toolkit.create", {"handle": "t1", "extraTools": [ECHO]})
        check("toolkit.create (host tool only)", r["ok"] and r["result"] == {"tools": ["echo"], "status": {}}, r)

        r = ad.call("client.run", {"client": "c1", "toolkit": "t1", "prompt": "hello"})
        res = r.get("result", {})
        check("client.run ok", r["ok"] and res == {"text": "done", "turns": 2, "toolCalls": ["echo"], "calls": [
            {"name": "echo", "args": {"text": "hi"}, "output": "echoed", "isError": False}]}, r)
        check("callbacks in the port's order", [c["fn"] for c in ad.callbacks] ==
              ["beforeLLM", "bodyTransform", "http", "tool", "beforeLLM", "bodyTransform", "http"], ad.callbacks)
        saw = [a["body"] for a in ad.saw("bodyTransform")]
        check("the transform got each body post-merge", len(saw) == 2 and all(
            b.get("temperature") == 0.42 and b.get("chat_template_kwargs") == {"enable_thinking": False} for b in saw), saw)
        check("the transform got the messages the hook gave", saw and saw[0]["messages"][-1] == {"role": "user", "content": "rewritten"}, saw[:1])
        check("no stream key reached the transform (forbidden key stripped)", all("stream" not in b for b in saw), saw)
        hooks = ad.saw("beforeLLM")
        check("beforeLLM args", [(h["client"], h["turn"], len(h["messages"]), len(h["tools"] or [])) for h in hooks]
              == [("c1", 0, 1, 1), ("c1", 1, 3, 1)], hooks)
        http = ad.saw("http")
        check("http callback before each request", len(http) == 2 and all(
            h == {"client": "c1", "method": "POST", "url": llm.base + "/s/1/chat/completions"} for h in http), http)
        check("tool callback", ad.saw("tool") == [{"toolkit": "t1", "name": "echo", "input": {"text": "hi"}}], ad.saw("tool"))
        check("warning names the forbidden key",
              sum('request_params key "stream"' in w for w in r["warnings"]) == 2 and all(w.startswith("[toolnexus]") for w in r["warnings"]), r["warnings"])
        bodies = llm.bodies("/s/1")
        check("server saw the transform's output", len(bodies) == 2 and all(
            b.get("injected") == "yes" and "chat_template_kwargs" not in b and b.get("temperature") == 0.42 for b in bodies), bodies)
        check("server saw the hook's and the transform's edit", bodies and bodies[0]["messages"][-1]["content"] == "rewritten /nothink", bodies[:1])
        check("the tool's output went back to the model", len(bodies) == 2 and bodies[1]["messages"][-1].get("content") == "echoed", bodies[1:])
        check("server never saw stream on a non-streaming call", all("stream" not in b for b in bodies), bodies)

        # 2. streaming run on the same client
        r = ad.call("client.run", {"client": "c1", "toolkit": "t1", "prompt": "again", "stream": True})
        res = r.get("result", {})
        check("client.run stream", r["ok"] and res.get("text") == "done" and res.get("toolCalls") == ["echo"]
              and len(ad.saw("http")) == 2 and len(ad.saw("bodyTransform")) == 2, r)
        sb = llm.bodies("/s/1")[2:]
        check("stream bodies carry stream + params", len(sb) == 2 and all(b.get("stream") is True and b.get("temperature") == 0.42 for b in sb), sb)

        # 2b. anthropic run + stream, tool loop; the transform appends to the last user TEXT message
        r = ad.call("client.create", client_args("c3", llm.base + "/s/3", style="anthropic", requestParams={"max_tokens": 999},
                                                 bodyTransform=True, httpClient="recording"))
        for stream in (False, True):
            r = ad.call("client.run", {"client": "c3", "toolkit": "t1", "prompt": "q", "stream": stream})
            res = r.get("result", {})
            check(f"anthropic run stream={stream}", r["ok"] and res.get("text") == "done" and res.get("turns") == 2
                  and res.get("toolCalls") == ["echo"] and len(ad.saw("http")) == 2, r)
        ab = llm.bodies("/s/3")
        # turn 1: the prompt is the last user message and gets the suffix; turn 2: the last
        # user message is the tool results (list content), so nothing is appended anywhere
        check("anthropic bodies: max_tokens 999; /nothink only where the last user message is text",
              len(ab) == 4 and all(b.get("max_tokens") == 999 for b in ab)
              and all(b["messages"][0]["content"] == "q /nothink" for b in (ab[0], ab[2]))
              and all(b["messages"][0]["content"] == "q" and isinstance(b["messages"][-1]["content"], list) for b in (ab[1], ab[3])), ab)

        # 2c. inPlace: the stub edits the very body it got, nested objects included
        def in_place(fn: str, args: dict[str, Any]) -> dict[str, Any]:
            if fn != "bodyTransform":
                return shaping(fn, args)
            body = copy.deepcopy(args["body"])
            body["chat_template_kwargs"]["edited"] = "yes"
            body.pop("temperature", None)
            return {"ok": True, "value": body, "inPlace": True}

        ad.answer = in_place
        ad.call("client.create", client_args("c4", llm.base + "/s/4", bodyTransform=True,
                                             requestParams={"temperature": 0.1, "chat_template_kwargs": {"enable_thinking": False}}))
        r = ad.call("client.run", {"client": "c4", "toolkit": "t1", "prompt": "p"})
        b4, saw = llm.bodies("/s/4"), [a["body"] for a in ad.saw("bodyTransform")]
        check("inPlace: the server saw the edit", r["ok"] and len(b4) == 2 and all(
            b["chat_template_kwargs"] == {"enable_thinking": False, "edited": "yes"} and "temperature" not in b for b in b4), b4)
        # the port shares the nested requestParams value between requests (a shallow merge), so
        # an in-place edit of that very dict shows in the next call's input: proof of the identity
        check("inPlace: the port's own nested object was edited", len(saw) == 2 and saw[1]["chat_template_kwargs"].get("edited") == "yes"
              and saw[1].get("temperature") == 0.1, saw)

        # 2d. a null answer keeps the port's body; an ok: false tool answer raises in execute
        def refuse(fn: str, args: dict[str, Any]) -> dict[str, Any]:
            return {"ok": False, "error": "host: refused"} if fn == "tool" else {"ok": True, "value": None}

        ad.answer = refuse
        ad.call("client.create", client_args("c5", llm.base + "/s/5", bodyTransform=True, requestParams={"temperature": 0.2}))
        r = ad.call("client.run", {"client": "c5", "toolkit": "t1", "prompt": "p"})
        b5 = llm.bodies("/s/5")
        check("a null transform answer leaves the port's body", b5 and b5[0].get("temperature") == 0.2
              and b5[0]["messages"] == [{"role": "user", "content": "p"}], b5[:1])
        check("an ok: false tool answer surfaces with its text", ("host: refused" in json.dumps(b5[1:]))
              or (not r["ok"] and "host: refused" in r["error"]["message"]), (r, b5[1:]))
        ad.answer = shaping

        # 3. store accessor
        r = ad.call("store.identity", {"client": "c1"})
        check("store.identity host", r["ok"] and r["result"] == {"same": True}, r)
        r = ad.call("client.create", client_args("c2", llm.base + "/s/2"))
        r = ad.call("store.identity", {"client": "c2"})
        check("store.identity default", r["ok"] and r["result"] == {"same": False}, r)
        r = ad.call("store.get", {"client": "c2", "id": "id1"})
        check("store.get absent", r["ok"] and r["result"] == {"messages": None}, r)
        r = ad.call("client.ask", {"client": "c2", "prompt": "first", "id": "id1"})
        check("client.ask (no toolkit, default transport: no callbacks)", r["ok"] and r["result"]["text"] == "done" and ad.callbacks == [], r)
        r = ad.call("store.get", {"client": "c2", "id": "id1"})
        check("store.get after ask", r["ok"] and [m.get("role") for m in (r["result"]["messages"] or [])] == ["user", "assistant"], r)
        hist = [{"role": "user", "content": "saved q"}, {"role": "assistant", "content": "saved a"}]
        r = ad.call("store.save", {"client": "c2", "id": "id2", "messages": hist})
        check("store.save", r["ok"] and r["result"] == {}, r)
        r = ad.call("client.ask", {"client": "c2", "prompt": "next", "id": "id2"})
        last = llm.bodies("/s/2")[-1]
        check("ask continues saved history", r["ok"] and last["messages"][:2] == hist and "tools" not in last and "tool_choice" not in last, last)

        # 4. unsupported: what the port's API cannot express
        r = ad.call("client.run", {"client": "c2", "prompt": "x", "stream": True, "history": hist})
        check("stream+history unsupported", not r["ok"] and r["error"]["kind"] == "unsupported", r)
        r = ad.call("client.create", client_args("c6", llm.base + "/s/6", httpClient="recording", httpTimeoutMs=100))
        check("httpTimeoutMs unsupported", not r["ok"] and r["error"]["kind"] == "unsupported", r)

        # 5. MCP: a stdio server (file config, with a tools filter) + a disabled one
        mcp_cmd = [cmd[0], os.path.abspath(__file__), "--mcp-server"]
        cfg = {"mcpServers": {"srv": {"command": mcp_cmd, "tools": {"a": True, "nope": True}},
                              "off": {"command": mcp_cmd, "enabled": False}}}
        path = os.path.join(tmp, "mcp.json")
        with open(path, "w") as f:
            json.dump(cfg, f)
        r = ad.call("toolkit.create", {"handle": "t2", "mcpConfig": {"file": path}, "extraTools": [ECHO]})
        check("toolkit.create (stdio MCP, file config)", r["ok"] and r["result"] == {"tools": ["srv_a", "echo"], "status": {"srv": "connected", "off": "disabled"}}, r)
        check("unknown filter name warned", any('"nope"' in w for w in r["warnings"]), r["warnings"])
        r3 = ad.call("toolkit.create", {"handle": "t3", "mcpConfig": {"inline": cfg}, "cancelAfterMs": 10000})
        check("toolkit.create (inline, cancel timer not fired)", r3["ok"] and r3["result"]["tools"] == ["srv_a"], r3)
        # close in FIFO order: each toolkit lives in its own owner task
        r = ad.call("toolkit.close", {"toolkit": "t2"})
        check("toolkit.close t2", r["ok"] and r["result"] == {}, r)
        r = ad.call("toolkit.close", {"toolkit": "t3"})
        check("toolkit.close t3", r["ok"] and r["result"] == {}, r)
        r = ad.call("toolkit.close", {"toolkit": "t3"})
        check("toolkit.close unknown handle fails", not r["ok"] and r["error"]["kind"] == "failed", r)

        r = ad.call("mcp.load", {"mcpConfig": {"inline": cfg}})
        check("mcp.load", r["ok"] and r["result"] == {"tools": ["srv_a"], "status": {"srv": "connected", "off": "disabled"}}, r)
        r = ad.call("mcp.load", {"mcpConfig": {"inline": cfg}, "context": False})
        check("mcp.load context:false", r["ok"] and r["result"]["tools"] == ["srv_a"], r)
        r = ad.call("mcp.list", {"mcpConfig": {"file": path}})
        res = r.get("result", {})
        names = [t["name"] for t in res.get("tools", {}).get("srv", [])]
        check("mcp.list (unfiltered, original names)", r["ok"] and sorted(names) == ["a", "get.balance"]
              and res.get("status") == {"srv": "connected", "off": "disabled"}
              and all(isinstance(t["inputSchema"], dict) for t in res["tools"]["srv"]), r)

        # 5b. wave 1: native tools (each returns kind, a raise), an http tool, describe, execute, adapters, sanitize
        def natives(fn: str, args: dict[str, Any]) -> dict[str, Any]:
            name = args.get("name")
            if name == "n_fail":
                return {"ok": False, "error": "host: native refused"}
            value = {"n_str": "plain", "n_obj": {"b": 1, "a": [True, None]},
                     "n_res": {"output": "r", "isError": True, "metadata": {"k": 1}}}.get(name, "echoed")
            return {"ok": True, "value": value}

        ad.answer = natives
        extra = [{"name": "n_str", "description": "s", "kind": "native"},
                 {"name": "n_obj", "description": "o", "kind": "native", "returns": "object",
                  "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}},
                 {"name": "n_res", "description": "r", "kind": "native", "returns": "result"},
                 {"name": "n_fail", "description": "f", "kind": "native"},
                 {"name": "h.get", "description": "h", "kind": "http", "method": "GET", "url": llm.base + "/h/{id}",
                  "headers": {"X-Auth": "${TNX_SECRET}"}, "timeoutMs": 5000}, ECHO]
        r = ad.call("toolkit.create", {"handle": "w1", "extraTools": extra})
        check("toolkit.create (native + http + host)", r["ok"] and r["result"]["tools"] == ["n_str", "n_obj", "n_res", "n_fail", "h.get", "echo"], r)
        r = ad.call("toolkit.describe", {"toolkit": "w1"})
        tools = r.get("result", {}).get("tools") or []
        check("toolkit.describe: names, sources, schemas", r["ok"] and [(t["name"], t["source"]) for t in tools] == [
            ("n_str", "native"), ("n_obj", "native"), ("n_res", "native"), ("n_fail", "native"), ("h.get", "http"), ("echo", "custom")]
            and tools[0]["inputSchema"] == {"type": "object", "properties": {}, "additionalProperties": False}
            and tools[1]["inputSchema"] == extra[1]["inputSchema"] and r["result"]["status"] == {}, r)
        r = ad.call("tool.execute", {"toolkit": "w1", "name": "n_str", "args": {"x": 1, "ctx": "c"}})
        check("tool.execute native string: the args relayed whole", r["ok"] and r["result"] == {"output": "plain", "isError": False}
              and ad.saw("tool") == [{"toolkit": "w1", "name": "n_str", "input": {"x": 1, "ctx": "c"}}], (r, ad.callbacks))
        r = ad.call("tool.execute", {"toolkit": "w1", "name": "n_obj"})
        check("tool.execute native object (no args: {} reaches fn)", r["ok"] and r["result"] == {"output": '{"b": 1, "a": [true, null]}', "isError": False}
              and ad.saw("tool") == [{"toolkit": "w1", "name": "n_obj", "input": {}}], (r, ad.callbacks))
        r = ad.call("tool.execute", {"toolkit": "w1", "name": "n_res", "args": None})
        check("tool.execute native result", r["ok"] and r["result"] == {"output": "r", "isError": True, "metadata": {"k": 1}}, r)
        r = ad.call("tool.execute", {"toolkit": "w1", "name": "n_fail", "args": {}})
        check("tool.execute native raise: the answer's message", r["ok"] and r["result"] == {"output": "host: native refused", "isError": True}, r)
        r = ad.call("tool.execute", {"toolkit": "w1", "name": "h.get", "args": {"id": "a b", "n": 2}})
        check("tool.execute http GET", r["ok"] and r["result"] == {"output": json.dumps({"path": "/h/a%20b?n=2", "auth": "s3cr3t-9f2c"}), "isError": False,
              "metadata": {"status": 200}}, r)
        r = ad.call("tool.execute", {"toolkit": "w1", "name": "nope"})
        check("tool.execute unknown name", r["ok"] and r["result"] == {"output": "Unknown tool: nope", "isError": True}, r)
        r = ad.call("adapters", {"toolkit": "w1"})
        res = r.get("result", {})
        check("adapters", r["ok"] and len(res.get("openai", [])) == 6 and res["openai"][5] == {"type": "function", "function": {
            "name": "echo", "description": "echo text", "parameters": ECHO["inputSchema"]}}
              and res["anthropic"][5] == {"name": "echo", "description": "echo text", "input_schema": ECHO["inputSchema"]}
              and len(res["gemini"]) == 1 and len(res["gemini"][0]["functionDeclarations"]) == 6, r)
        r = ad.call("sanitize", {"value": "a.b c🚀-_9"})
        check("sanitize", r["ok"] and r["result"] == {"value": "a_b_c_-_9"}, r)
        r = ad.call("toolkit.close", {"toolkit": "w1"})
        ad.answer = shaping

        # 6. errors: relayed with their chain, judged by errors.json
        r = ad.call("mcp.load", {"mcpConfig": {"file": os.path.join(tmp, "missing.json")}})
        check("missing config file: FileNotFoundError, judged invalid", not r["ok"] and r["error"].get("type") == "FileNotFoundError"
              and r["error"]["chain"][0]["is"] == ["OSError", "Exception"] and judged("mcp.load", r) == "invalid", r)
        with open(os.path.join(tmp, "bad.json"), "w") as f:
            f.write("{not json")
        r = ad.call("mcp.list", {"mcpConfig": {"file": os.path.join(tmp, "bad.json")}})
        check("unparsable config: judged invalid", not r["ok"] and judged("mcp.list", r) == "invalid", r)
        r = ad.call("mcp.list", {"mcpConfig": {"inline": {"x": {"command": mcp_cmd}}}, "cancelAfterMs": 0})
        check("pre-fired cancel: CancelledError, judged cancelled", not r["ok"]
              and r["error"].get("type") == "asyncio.exceptions.CancelledError" and judged("mcp.list", r) == "cancelled", r)
        r = ad.call("mcp.list", {"mcpConfig": {"inline": {"x": {"command": mcp_cmd}}}, "deadlineMs": 0})
        # SPEC.md §3: the port's one handle is an asyncio.Event, so a deadline is a CancelledError too.
        check("pre-fired deadline: the port's CancelledError", not r["ok"] and judged("mcp.list", r) == "cancelled", r)
        r = ad.call("toolkit.create", {"handle": "t4", "mcpConfig": {"inline": cfg}, "cancelAfterMs": 0})
        check("toolkit.create pre-fired cancel: judged cancelled", not r["ok"] and judged("toolkit.create", r) == "cancelled", r)
        r = ad.call("client.run", {"client": "c1", "toolkit": "t4", "prompt": "x"})
        check("a failed toolkit.create leaves no handle", not r["ok"] and r["error"].get("kind") == "failed", r)
        r = ad.call("client.run", {"client": "nope", "prompt": "x"})
        check("unknown client handle: failed", not r["ok"] and r["error"].get("kind") == "failed", r)
        ad.call("client.create", client_args("c7", "http://127.0.0.1:1/s/7"))
        r = ad.call("client.run", {"client": "c7", "prompt": "x"})
        check("a refused connection: relayed, judged failed", not r["ok"] and "type" in r["error"] and judged("client.run", r) == "failed", r)

        r = ad.call("shutdown", {})
        check("shutdown", r["ok"] and r["result"] == {}, r)
        t0 = time.monotonic()
        rc = ad.stop()
        check("adapter exits 0 after shutdown", rc == 0, rc)
        check("adapter exits promptly", time.monotonic() - t0 < 8, time.monotonic() - t0)
        if SCHEMA.ok:
            print(f"     {ad.validated} requests and responses validated against schema/protocol.schema.json")
    except Exception as e:  # noqa: BLE001
        check("no exception", False, repr(e))
        ad.stop()
    finally:
        llm.close()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
