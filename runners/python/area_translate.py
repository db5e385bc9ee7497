"""The translate area (upstream SPEC §11): client.translate hands one request to the port's
Client.translate, with exactly the fields given as its keywords, and reports its result in the
protocol's names. The toolkit is declared, never run."""
from __future__ import annotations

from typing import Any

import kit
from kit import AdapterError

# protocol field -> the port's keyword; an absent field is not passed (the port's default)
FIELDS = (("tools", "tools"), ("toolChoice", "tool_choice"), ("system", "system"), ("maxTokens", "max_tokens"))


async def op_client_translate(args: dict[str, Any]) -> dict[str, Any]:
    client = kit.clients.lookup(args["client"])
    translate = getattr(client, "translate", None)
    if not callable(translate):
        raise AdapterError("unsupported", "adapter: this toolnexus Client has no translate (§11)")
    kw = {name: args[k] for k, name in FIELDS if k in args}
    if "toolkit" in args:
        kw["toolkit"] = kit.toolkit_of(args)
    res = await translate(args["messages"], **kw)
    calls = getattr(res, "tool_calls", None)
    usage = getattr(res, "usage", None)
    # as the port returned it: arguments as it typed them, a missing field None
    return {"text": getattr(res, "text", None),
            "toolCalls": [{"id": getattr(tc, "id", None), "name": getattr(tc, "name", None),
                           "arguments": getattr(tc, "arguments", None)} for tc in calls] if isinstance(calls, list) else None,
            "finishReason": getattr(res, "finish_reason", None),
            "usage": None if not isinstance(usage, dict) else {
                "promptTokens": usage.get("prompt_tokens"), "completionTokens": usage.get("completion_tokens"),
                "totalTokens": usage.get("total_tokens")},
            "model": getattr(res, "model", None)}


kit.register({"client.translate": op_client_translate}, order=110)
