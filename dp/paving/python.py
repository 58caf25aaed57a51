"""Tools of a uv / poetry / pdm / hatch project that are in its environment only.

``pytest`` is "command not found" and ``python -m pytest`` says "No module
named pytest" when the project's environment is not active. When the tool is
installed in the project's environment (which exists) and not on PATH — or,
for ``python -m MODULE``, the interpreter on PATH lacks the module — the
command runs through the project's manager (``uv run --frozen``, ``poetry
run``, ``pdm run``, ``hatch run``: the table ``python-runners``). That runs
the project's own environment, so it happens only in a repository the user
trusts (dp.paving.reach). ``pip install`` is only advised: the right fix
changes the project's files.

Everything here is a ``stat`` or a directory listing: no interpreter is ever
started to ask what it has (the one on PATH may be the repository's own), so
whether PATH's python has a module is read from its site directories.
"""

from __future__ import annotations

import glob
import os
import shutil

from dp.paving.javascript import Skip
from dp.rules.tables import load

TABLE = "python-runners"
# Where an interpreter's modules live, relative to its prefix (Debian's dist-packages too).
_MODULE_DIRS = ("lib/python3*/site-packages", "lib/python3*/dist-packages", "lib/python3/dist-packages",
                "local/lib/python3*/dist-packages", "lib/python3.*", "lib64/python3.*")


def pave(command, project: dict) -> str:
    """The prefix to put before the command word (``uv run --frozen ``); Skip otherwise."""
    table = load(TABLE)
    name = command.name
    manager = project["manager"]
    if not manager:
        raise Skip(project.get("ambiguity") or project.get("error") or "")
    environment = project.get("environment")
    if not environment:
        raise Skip(f"this {manager} project has no environment yet ({table['managers'][manager]['sync']})")
    if command.word.raw != name:
        raise Skip("")  # a path or quoted word: the agent chose the program
    if name in table["interpreters"]:
        _check_module(command, environment)
    elif name in table["tools"]:
        if shutil.which(name) is not None:
            raise Skip("")  # on PATH: the agent's command already runs
        if not os.path.exists(os.path.join(environment, "bin", name)):
            raise Skip("")
    else:
        raise Skip("")
    return table["managers"][manager]["run"] + " "


def _check_module(command, environment: str) -> None:
    """``python -m MODULE`` is paved only when the env has MODULE and PATH's python lacks it."""
    values = [arg.value for arg in command.args]
    if len(values) < 2 or values[0] != "-m" or not values[1].replace(".", "").replace("_", "").isalnum():
        raise Skip("")
    top = values[1].split(".")[0]
    if not _has_module([os.path.join(glob.escape(environment), "lib", "python*", "site-packages")], top):
        raise Skip("")
    interpreter = shutil.which(command.name)
    if interpreter is None:
        return
    # A venv's python is a symlink to the base interpreter: compare directories, not targets.
    if os.path.realpath(os.path.dirname(interpreter)) == os.path.realpath(os.path.join(environment, "bin")):
        raise Skip("")  # the environment is active already
    if _has_module(_module_dirs(interpreter), top):
        raise Skip("")


def _module_dirs(interpreter: str) -> list:
    """The directory patterns PATH's ``interpreter`` imports from: its own prefix (a virtual
    environment's), its base interpreter's, and the user's site directory."""
    prefixes = {os.path.dirname(os.path.dirname(os.path.abspath(interpreter))),
                os.path.dirname(os.path.dirname(os.path.realpath(interpreter)))}
    dirs = [os.path.join(glob.escape(prefix), pattern) for prefix in sorted(prefixes) for pattern in _MODULE_DIRS]
    return dirs + [os.path.join(glob.escape(os.path.expanduser("~")), ".local", "lib", "python3*", "site-packages")]


def _has_module(patterns, top: str) -> bool:
    return any(glob.glob(os.path.join(pattern, name)) for pattern in patterns for name in (top, top + ".py"))


def advice(command, project: dict) -> str:
    """What to tell the agent about ``pip install …`` in this project ('' if nothing)."""
    values = [arg.value for arg in command.args]
    manager = project.get("manager")
    if not manager or values[:1] != ["install"]:
        return ""
    commands = load(TABLE)["managers"][manager]
    packages = [arg.raw for arg in command.args[1:] if not arg.value.startswith("-")]
    if packages and not any(value.startswith("-") for value in values[1:]):
        add = commands["add"]
        suggestion = f"`{add} {' '.join(packages)}`" if add.startswith(manager) else add
        return f"this project ({project['reason']}) adds dependencies with {suggestion}; pip would bypass its lockfile"
    return f"this project ({project['reason']}) installs its dependencies with `{commands['sync']}`"
