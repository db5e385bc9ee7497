"""The mcp area: mcp.load and mcp.list, and toolkit.create's mcpConfig, read as they read it."""
from __future__ import annotations

import copy
from typing import Any

import toolnexus as tn

import kit
from kit import AdapterError


def config_input(cfg: dict[str, Any]) -> Any:  # {file}: the path string; {inline}: the object
    return cfg["file"] if "file" in cfg else copy.deepcopy(cfg["inline"])


async def op_mcp_load(args: dict[str, Any]) -> dict[str, Any]:
    inp = config_input(args["mcpConfig"])
    if args.get("context", True) is False:
        if "cancelAfterMs" in args or "deadlineMs" in args:
            raise AdapterError("unsupported", "toolnexus load_mcp(input, wait_for=None) (the no-context "
                                              "entry point) takes no cancellation handle")
        src = await tn.load_mcp(inp)
    else:
        with kit.cancel_handle(args) as cancel:
            src = await tn.load_mcp_with_context(inp, cancel=cancel)
    if src is None:
        return {"tools": None, "status": None}
    try:
        return {"tools": [t.name for t in src.tools], "status": dict(src.status)}
    finally:
        await src.close()


async def op_mcp_list(args: dict[str, Any]) -> dict[str, Any]:
    with kit.cancel_handle(args) as cancel:
        inv = await tn.list_mcp_tools(config_input(args["mcpConfig"]), cancel=cancel)
    if inv is None:
        return {"tools": None, "status": None}
    tools = {server: [{"name": ti.name, "description": ti.description, "inputSchema": ti.input_schema}
                      for ti in infos]
             for server, infos in inv.tools.items()}
    return {"tools": tools, "status": dict(inv.status)}


def toolkit_option(handle: str, args: dict[str, Any], kw: dict[str, Any]) -> None:
    if "mcpConfig" in args:
        kw["mcp_config"] = config_input(args["mcpConfig"])


kit.register({"mcp.load": op_mcp_load, "mcp.list": op_mcp_list}, toolkit_option=toolkit_option, order=50,
             ranks={"mcp.load": 9, "mcp.list": 10})
