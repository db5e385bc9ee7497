"""The hooks area: after_llm, before_tool and after_tool stubs that call back hooks.* (upstream
SPEC §8 Hooks; before_llm is the llm area's). Each relays what the port gave it and returns what
the runner answered, in the port's shapes (a ToolResult inside {"result": ...}; a result with
pending is a suspension, §10)."""

from typing import Any, Callable, Optional

import toolnexus as tn

import area_suspension
import kit


def _result_json(r: Any) -> dict[str, Any]:
    out = {"output": r.output, "isError": r.is_error}
    if getattr(r, "metadata", None) is not None:
        out["metadata"] = area_suspension.metadata_json(r.metadata)
    return out


def _tool_result(v: dict[str, Any]) -> Any:
    # with pending (a guard-raised suspension, §10) the result carries metadata {"pending": the port's Request}
    if v.get("pending") is not None:
        return tn.ToolResult(output=v.get("output", ""), is_error=bool(v.get("isError")),
                             metadata={"pending": area_suspension.request_of(v["pending"])})
    return tn.ToolResult(output=v.get("output", ""), is_error=bool(v.get("isError")))


def after_llm_stub(client: str) -> Callable[[dict[str, Any]], None]:
    def after_llm(ev: dict[str, Any]) -> None:
        kit.slot("hooks.afterLLM", {"client": client, "turn": ev.get("turn"), "model": ev.get("model"),
                                    "response": ev.get("response")})
    return after_llm


def before_tool_stub(client: str) -> Callable[[dict[str, Any]], Optional[dict[str, Any]]]:
    def before_tool(ev: dict[str, Any]) -> Optional[dict[str, Any]]:
        v = kit.slot("hooks.beforeTool", {"client": client, "name": ev.get("name"), "args": ev.get("args"),
                                          "id": ev.get("id"), "turn": ev.get("turn")})
        if not isinstance(v, dict):
            return None
        if v.get("result") is not None:
            return {"result": _tool_result(v["result"])}
        return {"args": v["args"]} if v.get("args") is not None else None
    return before_tool


def after_tool_stub(client: str) -> Callable[[dict[str, Any]], Optional[dict[str, Any]]]:
    def after_tool(ev: dict[str, Any]) -> Optional[dict[str, Any]]:
        v = kit.slot("hooks.afterTool", {"client": client, "name": ev.get("name"), "args": ev.get("args"),
                                         "id": ev.get("id"), "turn": ev.get("turn"), "result": _result_json(ev["result"])})
        return {"result": _tool_result(v["result"])} if isinstance(v, dict) and v.get("result") is not None else None
    return after_tool


def client_option(handle: str, args: dict[str, Any], kw: dict[str, Any]) -> None:
    # beside the llm area's before_llm, in the one hooks dict
    for key, name, stub in (("afterLLM", "after_llm", after_llm_stub), ("beforeTool", "before_tool", before_tool_stub),
                            ("afterTool", "after_tool", after_tool_stub)):
        if args.get(key):
            kw.setdefault("hooks", {})[name] = stub(handle)


kit.register({}, slots=("hooks.afterLLM", "hooks.beforeTool", "hooks.afterTool"), client_option=client_option,
             order=80)
