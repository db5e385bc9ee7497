"""The skills area: toolkit.create's skill options, the toolkit's catalog and the list-only
inventory (upstream SPEC §3)."""

from typing import Any

import toolnexus as tn

import kit
from kit import AdapterError


async def op_skills_prompt(args: dict[str, Any]) -> dict[str, Any]:
    return {"prompt": kit.toolkit_of(args).skills_prompt()}


async def op_skills_list(args: dict[str, Any]) -> dict[str, Any]:
    if not callable(getattr(tn, "list_skills", None)):
        raise AdapterError("unsupported", "adapter: this toolnexus exports no list_skills")
    inv = tn.list_skills(list(args["dirs"]))
    return {"skills": [{"name": s.name, "description": s.description, "location": str(s.location)} for s in inv.skills],
            "skipped": [{"location": str(s.location), "reason": str(s.reason)} for s in inv.skipped]}


def toolkit_option(handle: str, args: dict[str, Any], kw: dict[str, Any]) -> None:
    # skills only when asked (skills_dir; off without it)
    for key, name in (("skillsDir", "skills_dir"), ("skillSampleLimit", "skill_sample_limit"),
                      ("skillsFilter", "skills_filter")):
        if key in args:
            kw[name] = args[key]


kit.register({"toolkit.skillsPrompt": op_skills_prompt, "skills.list": op_skills_list},
             toolkit_option=toolkit_option, order=70)
