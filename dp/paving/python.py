"""Tools of a uv / poetry / pdm / hatch project that are in its environment only.

``pytest`` is "command not found" and ``python -m pytest`` says "No module
named pytest" when the project's environment is not active. When the tool is
installed in the project's environment (which exists) and not on PATH — or,
for ``python -m MODULE``, the interpreter on PATH lacks the module — the
command runs through the project's manager (``uv run --frozen``, ``poetry
run``, ``pdm run``, ``hatch run``: the table ``python-runners``). ``pip
install`` is only advised: the right fix changes the project's files.
"""

from __future__ import annotations

import glob
import os
import shutil

from dp.paving.javascript import Skip
from dp.rules.tables import load

TABLE = "python-runners"
MODULE_CHECK_SECONDS = 5


def pave(command, project: dict, cache) -> str:
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
        _check_module(command, environment, cache)
    elif name in table["tools"]:
        if shutil.which(name) is not None:
            raise Skip("")  # on PATH: the agent's command already runs
        if not os.path.exists(os.path.join(environment, "bin", name)):
            raise Skip("")
    else:
        raise Skip("")
    return table["managers"][manager]["run"] + " "


def _check_module(command, environment: str, cache) -> None:
    """``python -m MODULE`` is paved only when the env has MODULE and PATH's python lacks it."""
    values = [arg.value for arg in command.args]
    if len(values) < 2 or values[0] != "-m" or not values[1].replace(".", "").replace("_", "").isalnum():
        raise Skip("")
    top = values[1].split(".")[0]
    found = glob.glob(os.path.join(glob.escape(environment), "lib", "python*", "site-packages", top))
    found += glob.glob(os.path.join(glob.escape(environment), "lib", "python*", "site-packages", top + ".py"))
    if not found:
        raise Skip("")
    interpreter = shutil.which(command.name)
    if interpreter is None:
        return
    # A venv's python is a symlink to the base interpreter: compare directories, not targets.
    if os.path.realpath(os.path.dirname(interpreter)) == os.path.realpath(os.path.join(environment, "bin")):
        raise Skip("")  # the environment is active already
    if cache.has_module(interpreter, top, _module_found):
        raise Skip("")


def _module_found(interpreter: str, module: str) -> bool:
    import subprocess

    code = "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec(sys.argv[1]) else 3)"
    try:
        proc = subprocess.run(
            [interpreter, "-I", "-c", code, module], capture_output=True, timeout=MODULE_CHECK_SECONDS
        )
    except (OSError, subprocess.SubprocessError):
        return True  # unknown: leave the command alone
    return proc.returncode != 3


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
