"""``make test`` where there is no Makefile: the one runner that has the task.

A task command (``make T``, ``just T``, ``task T``, ``npm test`` / ``npm run
T``…) in a project that has no such runner, but exactly one runner that
defines ``T`` — the runners and tasks ``dp tasks`` lists — becomes that
runner's command for the task. An unknown task, one several runners define,
or a task given arguments (each runner passes them its own way) stays as it is,
and so does any task a runner's file may define where only running its tool
would tell (``unknown``: dp reads the files, never runs make to list them).

The task runs a recipe of the repository where the agent's command ran none
(there was no such runner), so this happens only in a repository the user
trusts (dp.paving.reach); until then the tasks are not even listed.
"""

from __future__ import annotations

import shlex

from dp.paving.javascript import Skip

# The runner name (as dp tasks reports it) each task command word belongs to.
RUNNER_OF = {"make": "make", "just": "just", "task": "task"}
JAVASCRIPT = ("npm", "yarn", "pnpm", "bun")


def pave(command, tasks: dict, javascript_script) -> tuple[str, str]:
    """(replacement text from the command word to its last argument, runner); Skip otherwise.

    ``javascript_script(command)`` reads ``npm test`` / ``npm run T -- ARGS``
    into (task, raw args) with the package-manager table.
    """
    if tasks is None or tasks.get("error"):
        raise Skip(tasks.get("error", "") if tasks else "")
    name = command.name
    runner = RUNNER_OF.get(name, name)
    present = {entry["name"] for entry in tasks["runners"]}
    if runner in present or (name in JAVASCRIPT and present & set(JAVASCRIPT)):
        raise Skip("")  # the project has that runner: the command is its own
    task, args = javascript_script(command) if name in JAVASCRIPT else _read(command)
    owners = [entry for entry in tasks["runners"] if task in entry["tasks"]]
    hidden = [entry for entry in tasks["runners"] if entry.get("unknown") and entry not in owners]
    if hidden:  # the file could define the task where only its tool's evaluation would show it
        raise Skip(f"{hidden[0]['name']} may define {task!r} where only running it would tell: {hidden[0]['unknown']}")
    if len(owners) != 1:
        names = ", ".join(entry["name"] for entry in owners)
        raise Skip(f"several runners define {task!r} ({names})" if owners else f"no runner defines {task!r}")
    if args:
        # `npm test -- --x` and `cargo test -- --x` pass arguments differently: the
        # agent's intent for them cannot be carried over from another runner.
        raise Skip(f"arguments for {task!r} would reach {owners[0]['name']} differently")
    return " ".join(shlex.quote(word) for word in owners[0]["tasks"][task]), owners[0]["name"]


def own_runner(name: str, directory: str, fingerprint: list) -> bool:
    """Does the project have the runner ``name`` belongs to, by its files alone (the markers
    ``fingerprint`` found)? make reads ``directory``'s Makefile; just and task look upwards."""
    import os

    from dp.runners import just, make, taskfile

    names = {"make": make.MAKEFILE_NAMES, "just": just.JUSTFILE_NAMES, "task": taskfile.TASKFILE_NAMES}.get(name, ())
    for path, _ in fingerprint:
        folder, base = os.path.split(path)
        if base in names and (name != "make" or folder == directory):
            return True
    return False


def _read(command) -> tuple[str, list]:
    """``make T`` / ``just T ARGS`` / ``task T [-- ARGS]``: the task and its raw arguments."""
    values = [arg.value for arg in command.args]
    if not values or values[0].startswith("-") or "=" in values[0] or any(arg.masked for arg in command.args):
        raise Skip("")
    return values[0], [arg.raw for arg in command.args[1:]]
