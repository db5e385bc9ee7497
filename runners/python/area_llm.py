"""The llm area: client.create, client.run and client.ask, and the bodyTransform and beforeLLM
host functions a client is created with. What other areas add to a client (the recording
transport, the host store, the hooks) comes from kit.client_options."""
from __future__ import annotations

import contextlib
import copy
from typing import Any, Callable

import toolnexus as tn

import area_suspension
import kit
from kit import AdapterError


def body_transform_stub(client: str) -> Callable[[dict[str, Any]], Any]:
    def transform(body: dict[str, Any]) -> Any:
        # edit: the very body, edited to equal the answer; else a new body, or None: the port keeps its own
        return kit.slot("llm.bodyTransform", {"client": client, "body": body}, edit=body)
    return transform


def before_llm_stub(client: str) -> Callable[[dict[str, Any]], Any]:
    def before_llm(ev: dict[str, Any]) -> Any:
        args = {"client": client, "turn": ev.get("turn"), "messages": ev.get("messages"), "tools": ev.get("tools")}
        return kit.slot("llm.beforeLLM", args)  # None, or {messages?, tools?}: the port's override
    return before_llm


def run_report(res: Any) -> dict[str, Any]:
    # What the port returned, nothing invented: a missing result stays None/null.
    calls = getattr(res, "tool_calls", None)
    usage = getattr(res, "usage", None)
    report = {"text": getattr(res, "text", None), "turns": getattr(res, "turns", None),
              "toolCalls": [str(tc.get("name")) for tc in calls] if isinstance(calls, list) else None,
              "calls": [call_of(tc) for tc in calls] if isinstance(calls, list) else None,
              "status": getattr(res, "status", None), "limit": getattr(res, "limit", None),
              "toolCallCount": getattr(res, "tool_call_count", None),
              "messages": getattr(res, "messages", None),
              # the port's usage dict in the protocol's names (prompt_tokens is promptTokens)
              "usage": None if not isinstance(usage, dict) else {
                  "promptTokens": usage.get("prompt_tokens"), "completionTokens": usage.get("completion_tokens"),
                  "totalTokens": usage.get("total_tokens")}}
    if getattr(res, "pending", None) is not None:  # the Request the run halted on (§10), in §10's keys
        report["pending"] = area_suspension.request_json(res.pending)
    return report


def call_of(tc: dict[str, Any]) -> dict[str, Any]:
    # one RunResult.tool_calls entry {name, args, output, is_error, metadata}; metadata None: none given
    out = {"name": tc.get("name"), "args": tc.get("args"), "output": tc.get("output"), "isError": tc.get("is_error")}
    if tc.get("metadata") is not None:
        out["metadata"] = area_suspension.metadata_json(tc["metadata"])
    return out


async def op_client_create(args: dict[str, Any]) -> dict[str, Any]:
    handle = args["handle"]
    kw: dict[str, Any] = {"base_url": args["baseUrl"], "style": args["style"],
                          "model": args["model"], "api_key": args["apiKey"]}
    for k, name in (("systemPrompt", "system_prompt"), ("maxTurns", "max_turns"), ("requestParams", "request_params")):
        if k in args:
            kw[name] = copy.deepcopy(args[k])
    if args.get("bodyTransform"):
        kw["body_transform"] = body_transform_stub(handle)
    if args.get("beforeLLM"):
        kw["hooks"] = {"before_llm": before_llm_stub(handle)}  # the hooks area's stubs join it
    kit.client_options(handle, args, kw)
    kit.clients[handle] = tn.create_client(**kw)
    return {}


@contextlib.asynccontextmanager
async def run_toolkit(args: dict[str, Any]) -> Any:
    # the named toolkit; with none named an empty one (builtins off), closed after the call, as
    # the other adapters do: the port's run, stream and ask take a Toolkit (0.16.0 calls
    # toolkit.skills_prompt() unguarded)
    tk = kit.toolkit_of(args)
    if tk is not None:
        yield tk
        return
    empty = await tn.create_toolkit(builtins=False)
    try:
        yield empty
    finally:
        await empty.close()


async def op_client_run(args: dict[str, Any]) -> dict[str, Any]:
    async with run_toolkit(args) as tk:
        return await _run(args, kit.clients.lookup(args["client"]), tk, args["prompt"])


async def _run(args: dict[str, Any], client: Any, tk: Any, prompt: str) -> dict[str, Any]:
    with kit.cancel_handle(args) as cancel:  # cancelAfterMs: the port's external cancel, an asyncio.Event
        return await _run_cancellable(args, client, tk, prompt, cancel)


async def _run_cancellable(args: dict[str, Any], client: Any, tk: Any, prompt: str, cancel: Any) -> dict[str, Any]:
    if not args.get("stream"):
        return run_report(await client.run(prompt, tk, history=args.get("history"), cancel=cancel))
    if args.get("history"):  # an empty history is the same as none
        raise AdapterError("unsupported",
                           "toolnexus Client.stream(prompt, toolkit, *, id=None, cancel=None) takes no history")
    result, seen = None, []
    async with contextlib.aclosing(client.stream(prompt, tk, id=args.get("id"), cancel=cancel)) as events:
        async for ev in events:
            seen.append(event_report(ev))
            if isinstance(ev, dict) and ev.get("type") == "done":
                result = ev.get("result")
    if result is None:
        raise AdapterError("failed", "adapter: the stream ended without a done event")
    report = run_report(result)
    report["events"] = seen
    return report


def event_report(ev: Any) -> dict[str, Any]:
    # one stream event in the protocol's names (the port's is_error is isError, its usage dict's
    # prompt_tokens is promptTokens, as for RunResult); nothing else is changed or added
    if not isinstance(ev, dict):
        return {"type": repr(ev)}
    out = {("isError" if k == "is_error" else k): v for k, v in ev.items()}
    if isinstance(ev.get("usage"), dict):
        u = ev["usage"]
        out["usage"] = {"promptTokens": u.get("prompt_tokens"), "completionTokens": u.get("completion_tokens"),
                        "totalTokens": u.get("total_tokens")}
    if ev.get("type") == "done":
        out["result"] = run_report(ev.get("result"))
    if ev.get("type") == "pending":  # the port's Request, in §10's keys
        out["request"] = area_suspension.request_json(ev.get("request"))
    return out


async def op_client_ask(args: dict[str, Any]) -> dict[str, Any]:
    client = kit.clients.lookup(args["client"])
    async with run_toolkit(args) as tk:
        if not args.get("onText"):
            return run_report(await client.ask(args["prompt"], tk, id=args.get("id")))
        deltas: list[str] = []  # the port's text callback (on_text), relayed
        report = run_report(await client.ask(args["prompt"], tk, id=args.get("id"), on_text=deltas.append))
        report["deltas"] = deltas
        return report


# order 20: its slots follow the suspension area's in hello's list.
kit.register({"client.create": op_client_create, "client.run": op_client_run, "client.ask": op_client_ask},
             slots=("llm.bodyTransform", "llm.beforeLLM"), order=20,
             ranks={"client.create": 1, "client.run": 2, "client.ask": 3})
