"""The memory area: the port's Conversation (client.conversation(toolkit)), its send, reset and
messages (upstream SPEC §8 Conversation memory). A stream with an id is the llm area's."""

from typing import Any

import toolnexus as tn

import kit
from area_llm import run_report

conversations = kit.Handles("conversation")


async def op_conversation_create(args: dict[str, Any]) -> dict[str, Any]:
    client = kit.clients.lookup(args["client"])
    tk = kit.toolkit_of(args)
    if tk is None:  # none named: an empty one (builtins off), kept with the conversation
        tk = await tn.create_toolkit(builtins=False)
    conversations[args["handle"]] = client.conversation(tk)
    return {}


async def op_conversation_send(args: dict[str, Any]) -> dict[str, Any]:
    return run_report(await conversations.lookup(args["conversation"]).send(args["prompt"]))


async def op_conversation_reset(args: dict[str, Any]) -> dict[str, Any]:
    conversations.lookup(args["conversation"]).reset()
    return {}


async def op_conversation_messages(args: dict[str, Any]) -> dict[str, Any]:
    return {"messages": getattr(conversations.lookup(args["conversation"]), "messages", None)}


kit.register({"conversation.create": op_conversation_create, "conversation.send": op_conversation_send,
              "conversation.reset": op_conversation_reset, "conversation.messages": op_conversation_messages},
             order=100)
