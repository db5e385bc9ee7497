#!/usr/bin/env python3
"""toolnexus conformance adapter for the Python port, a relay (SPEC.md §3): one JSON request
per stdin line, one response per stdout line; host functions call back to the runner; errors
are relayed with their chain, for the runner to judge (errors.json). One asyncio loop serves
the process.

This is the entry: it wires the kit (kit.py, kit_wire.py: the loop, dispatch, handles, error
relay, the host-function stub) and the area files beside it (area_*.py, which the kit finds),
each of which registers its ops with the kit."""
from __future__ import annotations

import os
import sys

# The kit and the areas are this file's siblings: found even where python leaves the script's
# folder off sys.path (-P, PYTHONSAFEPATH).
_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

import kit  # noqa: E402

if __name__ == "__main__":
    kit.take_stdout()  # before toolnexus is imported: nothing it prints may reach the protocol stream
    try:
        import toolnexus  # noqa: F401
    except Exception as _e:  # noqa: BLE001
        print(f"toolnexus adapter: cannot import toolnexus: {_e!r}", file=sys.stderr, flush=True)
        sys.exit(3)
    kit.load_areas()  # the fork server's parent loaded them already: then this imports nothing
    kit.serve()
