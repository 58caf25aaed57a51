"""On or off: project paving is on unless the user switched it off.

The switch is one small JSON file beside the store (``paving.json`` in the
user's dp directory): ``{"enabled": false}`` turns paving off everywhere,
``"off": [DIR, …]`` in those project directories and below. A missing or
unreadable file means on (the default from ``dp init``). Stdlib-only: the
hook reads it whenever a paving word occurs.
"""

import os

from dp.cachedir import read_json_object
from dp.paths import inside

FILE_NAME = "paving.json"


def state_path(dp_dir: str) -> str:
    return os.path.join(dp_dir, FILE_NAME)


def read_state(dp_dir: str) -> dict:
    """``{"enabled": bool, "off": [dir…]}``; defaults for a missing or broken file."""
    data = read_json_object(state_path(dp_dir), 1 << 16)
    off = data.get("off")
    return {
        "enabled": data.get("enabled") is not False,
        "off": [item for item in off if isinstance(item, str)] if isinstance(off, list) else [],
    }


def globally_enabled(dp_dir: str) -> bool:
    return read_state(dp_dir)["enabled"]


def enabled_for(dp_dir: str, directory: str) -> bool:
    """Is paving on for ``directory`` (off globally, or in it or a parent)?"""
    state = read_state(dp_dir)
    return state["enabled"] and disabling_project(state, directory) is None


def disabling_project(state: dict, directory: str):
    """The switched-off project that contains ``directory``, if any."""
    directory = os.path.realpath(directory)
    for project in state["off"]:
        if inside(directory, project):
            return project
    return None


def off_reason(dp_dir: str, directory: str) -> str:
    """Why paving does not act in ``directory`` because it is switched off, and how to switch it
    on; '' when it is on there (``pave-check --verbose`` says it)."""
    state = read_state(dp_dir)
    if not state["enabled"]:
        return "project paving is off everywhere (dp paving on)"
    project = disabling_project(state, directory) if directory else None
    if project is not None:
        return f"project paving is off in {project} (dp paving on --project, run there)"
    return ""
