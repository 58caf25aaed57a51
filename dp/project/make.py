"""Running one Makefile target: ``make TARGET`` and nothing else.

The target name is the only thing an agent controls, so it is held to
``[A-Za-z0-9_-]+`` and may not start with ``-`` (make would read it as an
option): no variable assignments, no ``-f``/``-C``, no shell.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from dp.errors import DpError
from dp.project.command import Command
from dp.project.makefiles import LANGUAGES
from dp.runners.make import find_makefile, list_targets

TARGET_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*")


def check_target(name: str) -> str:
    """``name`` if it is a safe make target name, else a DpError saying why."""
    if not runnable(name):
        raise DpError(
            f"invalid make target {json.dumps(name)}: use only letters, digits, '-' and '_', "
            "not starting with '-' (see `dp make --list`)"
        )
    return name


def make_command(directory: Path, target: str | None = None) -> Command:
    """``make TARGET`` (or plain ``make`` for the default goal) in ``directory``."""
    argv = ["make"] if target is None else ["make", check_target(target)]
    require_makefile(directory)
    return Command(argv, directory)


def require_makefile(directory: Path) -> Path:
    """The makefile make will read in ``directory``; none is an error that says how to get one."""
    makefile = find_makefile(directory)
    if makefile is None:
        raise DpError(
            f"no Makefile in {directory}; write one, or run "
            f"`dp make --generate {'|'.join(LANGUAGES)}` to start from a template"
        )
    return makefile


def make_targets(directory: Path) -> tuple[Path, list]:
    """The makefile in ``directory`` and its targets, as make's own database lists them."""
    makefile = require_makefile(directory)
    return makefile, list_targets(directory)


def runnable(name: str) -> bool:
    """Whether ``dp make`` will run a target of this name (make lists others too)."""
    return TARGET_NAME.fullmatch(name) is not None


def unknown_target_hint(directory: Path, target: str | None, output: str) -> str | None:
    """After make said it has no rule for ``target``: the closest targets it does have."""
    if target is None or f"No rule to make target '{target}'" not in output:
        return None
    import difflib

    try:
        names = [task.name for task in list_targets(directory) if runnable(task.name)]
    except DpError:  # make's own error already said what is wrong with the Makefile
        names = []
    close = difflib.get_close_matches(target, names, n=3, cutoff=0.6)
    suggestion = f"did you mean {' or '.join(json.dumps(name) for name in close)}? See" if close else "see"
    return f'hint: the Makefile has no target "{target}"; {suggestion} `dp make --list`'
