"""The store area: store.get, store.save and store.identity through the client's store
accessor, and the store client.create passes for store: "host"."""
from __future__ import annotations

import copy
from typing import Any

import toolnexus as tn

import kit

host_stores: dict[str, Any] = {}  # client handle -> the store it was given with store: host


def client_option(handle: str, args: dict[str, Any], kw: dict[str, Any]) -> None:
    if args.get("store") == "host":
        kw["store"] = host_stores[handle] = tn.InMemoryConversationStore()


async def op_store_get(args: dict[str, Any]) -> dict[str, Any]:
    msgs = await kit.clients.lookup(args["client"]).conversation_store.get(args.get("id"))
    return {"messages": None if msgs is None else list(msgs)}


async def op_store_save(args: dict[str, Any]) -> dict[str, Any]:
    store = kit.clients.lookup(args["client"]).conversation_store
    await store.save(args["id"], copy.deepcopy(args["messages"]))
    return {}


async def op_store_identity(args: dict[str, Any]) -> dict[str, Any]:
    store = kit.clients.lookup(args["client"]).conversation_store
    return {"same": args["client"] in host_stores and store is host_stores[args["client"]]}


# order 40: after the transport area, whose refusal of httpTimeoutMs comes before a store is made.
kit.register({"store.get": op_store_get, "store.save": op_store_save, "store.identity": op_store_identity},
             client_option=client_option, order=40, ranks={"store.get": 4, "store.save": 5, "store.identity": 6})
