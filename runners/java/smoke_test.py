#!/usr/bin/env python3
"""Smoke test for the Java adapter's relay; plain Python 3, no packages.

    python3 runners/java/smoke_test.py            # gets the adapter command from ./prepare
    ADAPTER_CMD='["java","-cp","...","conformance.Adapter"]' python3 runners/java/smoke_test.py

It starts the adapter as the runner does, with the callback pipe on fd 3, answers the callbacks
itself and drives a tool-calling run against a small OpenAI-style server on 127.0.0.1: a body
transform (in place, and as a new body), a BeforeLLM hook, the recording HTTP client, a host tool
(answered, then refused: the relayed error chain), the host store, an already-cancelled load and
the adapter's own unsupported and failed answers. When prepare finds no port (exit 3) it prints
"0 passed, 0 failed" and exits 0.
"""
import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
results = {"passed": 0, "failed": 0}
wire = []  # the bodies the fake LLM received


def check(name, ok, detail=""):
    results["passed" if ok else "failed"] += 1
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else f": {json.dumps(detail)[:600]}"))


class LLM(BaseHTTPRequestHandler):
    """Turn 1 asks for the tool echo; once a tool result is in the messages, it answers text."""

    def log_message(self, *args):
        pass

    def do_GET(self):  # the http tool's endpoint: JSON naming the path and a header
        out = json.dumps({"path": self.path, "auth": self.headers.get("X-Auth")}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        wire.append(body)
        if any(m.get("role") == "tool" for m in body["messages"]):
            msg = {"role": "assistant", "content": "done"}
        else:
            call = {"id": "call_1", "type": "function", "function": {"name": "echo", "arguments": '{"text":"hi"}'}}
            msg = {"role": "assistant", "content": None, "tool_calls": [call]}
        out = json.dumps({"choices": [{"message": msg, "finish_reason": "stop"}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)


def adapter_command():
    if os.environ.get("ADAPTER_CMD"):
        return json.loads(os.environ["ADAPTER_CMD"])
    p = subprocess.run([os.path.join(HERE, "prepare")], capture_output=True, text=True)
    if p.returncode == 3:
        print(p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "not present")
        return None
    if p.returncode != 0:
        sys.exit("prepare failed:\n" + p.stderr[-2000:])
    return json.loads(p.stdout.strip().splitlines()[-1])


class Adapter:
    """The adapter process: requests on stdin, callbacks answered on fd 3 by the handlers."""

    def __init__(self, cmd):
        r, w = os.pipe()
        # bash puts the pipe's read end on fd 3, as the runner does.
        self.proc = subprocess.Popen(["bash", "-c", f'exec 3<&{r} {r}<&-; exec "$@"', "adapter"] + cmd,
                                     pass_fds=(r,), env={**os.environ, "CONFORMANCE_CALLBACK_FD": "3", "TNX_PARENT": "1", "TNX_SECRET": "s3cr3t-9f2c"},
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=sys.stderr, text=True)
        os.close(r)
        self.answers = os.fdopen(w, "w")
        self.handlers, self.callbacks, self.next_id = {}, [], 0

    def request(self, op, args=None):
        self.next_id += 1
        self.proc.stdin.write(json.dumps({"id": self.next_id, "op": op, "args": args or {}}) + "\n")
        self.proc.stdin.flush()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit(f"the adapter closed stdout during {op}")
            msg = json.loads(line)
            if "callback" not in msg:
                assert msg["id"] == self.next_id, msg
                return msg
            self.callbacks.append(msg)
            answer = self.handlers.get(msg["fn"], lambda a: {"ok": True, "value": None})(msg["args"])
            self.answers.write(json.dumps({"callback": msg["callback"], **answer}) + "\n")
            self.answers.flush()


def main():
    cmd = adapter_command()
    if cmd is None:
        print("0 passed, 0 failed")
        return 0
    srv = ThreadingHTTPServer(("127.0.0.1", 0), LLM)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{srv.server_port}"
    a = Adapter(cmd)

    hello = a.request("hello")["result"]
    check("hello names the port and its ops", hello["port"] == "java" and "mcp.list" in hello["ops"], hello)
    check("hello has the port's version", not hello["version"].startswith("not loaded"), hello["version"])

    client = {"baseUrl": base, "style": "openai", "model": "m", "apiKey": "k"}
    r = a.request("client.create", {"handle": "c1", **client, "bodyTransform": True, "beforeLLM": True,
                                    "httpClient": "recording", "requestParams": {"kw": {"a": 1}}})
    check("client.create with every host function", r["ok"], r)
    tools = [{"name": "echo", "description": "echoes", "inputSchema": {"type": "object"}}]
    r = a.request("toolkit.create", {"handle": "t1", "extraTools": tools})
    check("toolkit.create with a host tool", r.get("result") == {"tools": ["echo"], "status": {}}, r)

    seen = []

    def in_place(args):
        body = args["body"]
        seen.append(json.loads(json.dumps(body)))
        body["kw"]["edited"] = True
        body.pop("tool_choice", None)
        return {"ok": True, "value": body, "inPlace": True}

    a.handlers = {"bodyTransform": in_place, "tool": lambda args: {"ok": True, "value": "echo-output"}}
    a.callbacks.clear()
    wire.clear()
    r = a.request("client.run", {"client": "c1", "toolkit": "t1", "prompt": "use the tool"})
    check("the run reports what the port returned", r.get("result") == {"text": "done", "turns": 2, "toolCalls": ["echo"], "calls": [
        {"name": "echo", "args": {"text": "hi"}, "output": "echo-output", "isError": False}]}, r)
    fns = [c["fn"] for c in a.callbacks]
    check("callbacks come in the port's order", fns == ["beforeLLM", "bodyTransform", "http", "tool",
                                                        "beforeLLM", "bodyTransform", "http"], fns)
    check("callbacks are numbered in order", [c["callback"] for c in a.callbacks] == sorted(c["callback"] for c in a.callbacks))
    check("callbacks carry the handles", {c["args"].get("client", c["args"].get("toolkit")) for c in a.callbacks} == {"c1", "t1"})
    http = [c["args"] for c in a.callbacks if c["fn"] == "http"]
    check("http callbacks say method and url", http and http[0]["method"] == "POST" and http[0]["url"].endswith("/chat/completions"), http)
    check("an in-place edit reached the wire", len(wire) == 2 and wire[0]["kw"] == {"a": 1, "edited": True}
          and "tool_choice" not in wire[0], wire[:1])
    # The port shares requestParams' nested map between requests: call 2 sees call 1's in-place edit.
    check("an in-place edit edits the very objects received", seen[1]["kw"].get("edited") is True, seen)
    tool_cb = [c["args"] for c in a.callbacks if c["fn"] == "tool"]
    check("the tool callback carries the model's input", tool_cb == [{"toolkit": "t1", "name": "echo", "input": {"text": "hi"}}], tool_cb)

    a.handlers = {
        "bodyTransform": lambda args: {"ok": True, "value": {**args["body"], "temperature": 0.5}, "inPlace": False},
        "beforeLLM": lambda args: {"ok": True, "value": {"tools": []}},
        "tool": lambda args: {"ok": False, "error": "host: refused"},
    }
    wire.clear()
    r = a.request("client.run", {"client": "c1", "toolkit": "t1", "prompt": "again"})
    check("a new body from the transform is sent", wire and wire[0].get("temperature") == 0.5, wire[:1])
    check("a BeforeLLM override of the tools is used", wire and "tools" not in wire[0], wire[:1])
    chain = r.get("error", {}).get("chain", [])
    check("a refused tool fails the run with the relayed chain", not r["ok"] and "kind" not in r["error"]
          and any(e["message"] == "host: refused" for e in chain) and all("type" in e and "is" in e for e in chain), r)

    r = a.request("client.run", {"client": "c1", "prompt": "x", "stream": True, "history": []})
    check("stream with a history is unsupported", r.get("error", {}).get("kind") == "unsupported", r)
    r = a.request("client.create", {"handle": "c2", **client, "httpClient": "recording", "httpTimeoutMs": 5})
    check("httpTimeoutMs is unsupported", r.get("error", {}).get("kind") == "unsupported", r)
    r = a.request("client.run", {"client": "nope", "prompt": "x"})
    check("an unknown handle is the adapter's failure", r.get("error", {}).get("kind") == "failed", r)

    a.request("client.create", {"handle": "c3", **client, "store": "host"})
    check("store.identity: the host store is the accessor's", a.request("store.identity", {"client": "c3"}).get("result") == {"same": True})
    msgs = [{"role": "user", "content": "hi"}]
    a.request("store.save", {"client": "c3", "id": "x", "messages": msgs})
    check("store.get returns what was saved", a.request("store.get", {"client": "c3", "id": "x"}).get("result") == {"messages": msgs})
    check("store.get of nothing is null", a.request("store.get", {"client": "c3", "id": "none"}).get("result") == {"messages": None})

    # wave 1: native tools (each returns kind, a throw), an http tool, describe, execute, adapters, sanitize
    values = {"n_str": "plain", "n_obj": {"b": 1, "a": [True, None]}, "n_res": {"output": "r", "isError": True, "metadata": {"k": 1}}}
    a.handlers = {"tool": lambda args: {"ok": False, "error": "host: native refused"} if args["name"] == "n_fail"
                  else {"ok": True, "value": values.get(args["name"], "echoed")}}
    extra = [{"name": "n_str", "description": "s", "kind": "native"},
             {"name": "n_obj", "description": "o", "kind": "native", "returns": "object",
              "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}},
             {"name": "n_res", "description": "r", "kind": "native", "returns": "result"},
             {"name": "n_fail", "description": "f", "kind": "native"},
             {"name": "h.get", "description": "h", "kind": "http", "method": "GET", "url": base + "/h/{id}",
              "headers": {"X-Auth": "${TNX_SECRET}"}, "timeoutMs": 5000}, tools[0]]
    r = a.request("toolkit.create", {"handle": "w1", "extraTools": extra})
    check("toolkit.create with native, http and host tools", r.get("result") == {
        "tools": ["n_str", "n_obj", "n_res", "n_fail", "h.get", "echo"], "status": {}}, r)
    r = a.request("toolkit.describe", {"toolkit": "w1"})
    described = r.get("result", {}).get("tools") or []
    check("toolkit.describe: names, sources, schemas", [(t["name"], t["source"]) for t in described] == [
        ("n_str", "native"), ("n_obj", "native"), ("n_res", "native"), ("n_fail", "native"), ("h.get", "http"), ("echo", "custom")]
        and described[0]["inputSchema"] == {"type": "object", "properties": {}, "additionalProperties": False}
        and described[1]["inputSchema"] == extra[1]["inputSchema"] and r["result"]["status"] == {}, r)
    a.callbacks.clear()
    r = a.request("tool.execute", {"toolkit": "w1", "name": "n_str", "args": {"x": 1}})
    check("tool.execute native string", r.get("result") == {"output": "plain", "isError": False}
          and [c["args"] for c in a.callbacks] == [{"toolkit": "w1", "name": "n_str", "input": {"x": 1}}], (r, a.callbacks))
    a.callbacks.clear()
    r = a.request("tool.execute", {"toolkit": "w1", "name": "n_obj"})
    check("tool.execute native object (no args: the port's empty map)", r.get("result") == {"output": '{"b":1,"a":[true,null]}', "isError": False}
          and [c["args"]["input"] for c in a.callbacks] == [{}], (r, a.callbacks))
    r = a.request("tool.execute", {"toolkit": "w1", "name": "n_res", "args": None})
    check("tool.execute native result", r.get("result") == {"output": "r", "isError": True, "metadata": {"k": 1}}, r)
    r = a.request("tool.execute", {"toolkit": "w1", "name": "n_fail", "args": {}})
    check("tool.execute native throw: the answer's message", r.get("result") == {"output": "host: native refused", "isError": True}, r)
    r = a.request("tool.execute", {"toolkit": "w1", "name": "h.get", "args": {"id": "a b", "n": 2}})
    res = r.get("result", {})
    check("tool.execute http GET", res.get("isError") is False and res.get("metadata") == {"status": 200}
          and json.loads(res.get("output", "{}")).get("auth") == "s3cr3t-9f2c", r)
    print(f"     the Java http tool sent the path {json.loads(res.get('output', '{}')).get('path')!r} for id 'a b'")
    r = a.request("tool.execute", {"toolkit": "w1", "name": "nope"})
    check("tool.execute unknown name", r.get("result") == {"output": "Unknown tool: nope", "isError": True}, r)
    res = a.request("adapters", {"toolkit": "w1"}).get("result", {})
    check("adapters", res.get("openai", [None])[-1] == {"type": "function", "function": {"name": "echo", "description": "echoes",
          "parameters": {"type": "object"}}} and res["anthropic"][-1] == {"name": "echo", "description": "echoes", "input_schema": {"type": "object"}}
          and len(res["gemini"]) == 1 and len(res["gemini"][0]["functionDeclarations"]) == 6, res)
    r = a.request("sanitize", {"value": "a.b c\U0001F680-_9"})
    check("sanitize", r.get("result") == {"value": "a_b_c_-_9"}, r)
    check("toolkit.close w1", a.request("toolkit.close", {"toolkit": "w1"}).get("ok"))

    stuck = {"inline": {"mcpServers": {"s": {"command": ["sleep", "30"]}}}}  # never answers initialize
    r = a.request("mcp.load", {"mcpConfig": stuck, "cancelAfterMs": 0})
    check("an already-cancelled load relays CancellationException", not r["ok"]
          and r["error"].get("type") == "java.util.concurrent.CancellationException", r)
    r = a.request("mcp.load", {"mcpConfig": {"file": "/nonexistent/mcp.json"}})
    check("a bad config file relays the port's error with its chain", not r["ok"] and len(r["error"].get("chain", [])) >= 1, r)
    r = a.request("mcp.list", {"mcpConfig": {"inline": {"mcpServers": {}}}})
    check("mcp.list of no servers", r.get("result") == {"tools": {}, "status": {}}, r)

    check("shutdown", a.request("shutdown").get("ok"))
    a.proc.wait(timeout=10)
    srv.shutdown()
    print(f"{results['passed']} passed, {results['failed']} failed")
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
