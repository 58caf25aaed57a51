"""What project paving does here, in words: for ``dp paving``, ``dp doctor``,
``dp aliases`` and ``dp pave --agents-md``.

Everything is derived from the same decision the hook makes (dp.paving.detect)
and from the translation table itself — the example translations are the
table run on sample commands — so what is shown is what the hook does.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from dp.paving import switch
from dp.paving.detect import decide, tasks
from dp.paving.javascript import Skip, translate

# Sample commands shown as the project's rules (the hook's translation of each).
JAVASCRIPT_SAMPLES = ("npm install", "npm ci", "npm install -D PKG", "npm uninstall PKG", "npm run SCRIPT -- ARGS",
                      "npm test", "npx DEPENDENCY", "npx BIN")
OTHER_MANAGERS = ("npm", "yarn", "pnpm", "bun")
# How pnpm spells the samples that are not `npm …` (shown in an npm project, pnpm being the usual stray).
PNPM_SPELLING = {"npx DEPENDENCY": "pnpm exec DEPENDENCY", "npx BIN": "pnpm dlx BIN"}


def set_switch(db_path, on: bool, project: str | None) -> dict:
    """Turn paving on/off globally (``project`` None) or for one project directory, beside the store at
    ``db_path``; announced (dp.changes): paving's words decide between ``if`` filters and a plain handler."""
    from dp import changes
    from dp.files import read_bytes, replace_file

    dp_dir = str(Path(db_path).parent)
    path = Path(switch.state_path(dp_dir))
    before = read_bytes(path)
    state = switch.read_state(dp_dir)
    if project is None:
        state["enabled"] = on
    else:
        project = os.path.realpath(project)
        state["off"] = [item for item in state["off"] if item != project] + ([] if on else [project])
    replace_file(path, (json.dumps(state, indent=2) + "\n").encode(), expected=before)
    changes.announce(db_path)
    return state


def project_directory(cwd: str) -> str:
    """The directory a per-project switch names: the repository root, else ``cwd``."""
    from dp.runners.registry import find_root

    root = find_root(Path(cwd).resolve())
    return str(root or Path(cwd).resolve())


def explain(dp_dir: str, cwd: str, with_tasks: bool = True, trust: tuple = (None, False)) -> dict:
    """``{"enabled", "why_off", "root", "trusted", "ecosystems": [{"ecosystem", "status", "message", "rules"}]}``;
    ``trust`` is ``(repository root, whether the user trusts it)`` (dp.layers.trusting.repository_trusted)."""
    root, trusted = trust
    state = switch.read_state(dp_dir)
    directory = os.path.realpath(cwd)
    off = switch.disabling_project(state, directory)
    why_off = "" if state["enabled"] and off is None else (
        "switched off for every project (dp paving on)" if not state["enabled"] else f"switched off for {off} (dp paving on --project)"
    )
    decision = decide(directory)
    ecosystems = [_javascript(decision["javascript"], root, trusted), _python(decision["python"], root, trusted)]
    if with_tasks:
        ecosystems.append(_tasks(directory, root, trusted))
    return {"enabled": not why_off, "why_off": why_off, "root": root, "trusted": bool(trusted),
            "ecosystems": [entry for entry in ecosystems if entry]}


def _until_trusted(root) -> str:
    """``the person runs `dp trust` in ROOT …``: the command that changes it, as one only the person runs
    (an agent reads this in ``dp paving`` and in AGENTS.md, dp.widening)."""
    from dp.widening import person_runs

    return person_runs("`dp trust`", f" in {root}" if root else " in a git repository")


def _entry(ecosystem: str, status: str, message: str, rules=()) -> dict:
    return {"ecosystem": ecosystem, "status": status, "message": message, "rules": list(rules)}


def _javascript(project, root, trusted: bool) -> dict | None:
    if project is None:
        return None
    if not project["manager"]:
        return _entry("javascript", "error", f"package.json not read: {project['error']}")
    if project["ambiguity"]:
        return _entry("javascript", "ambiguous", f"not paved: {project['ambiguity']}")
    manager = project["manager"]
    if project.get("supplied") and not trusted:
        return _entry("javascript", "untrusted", f"{manager}: {project['reason']}; not paved: it would run "
                      f"{project['supplied']}, where the agent's command runs none of it, until {_until_trusted(root)}")
    from dp.paving.reach import installed

    _, missing = installed(manager, None if trusted else os.path.realpath(root) if root else None)
    if missing:
        return _entry("javascript", "inactive", f"{manager}: {project['reason']}; not paved: {missing}")
    others = [name for name in OTHER_MANAGERS if name != manager]
    message = f"{manager}: {project['reason']} → {', '.join(others[:-1])} and {others[-1]} commands are paved to {manager}"
    return _entry("javascript", "ok", message, _javascript_rules(project, trusted))


def _javascript_rules(project: dict, trusted: bool) -> list:
    """(agent's command, what runs) for the sample commands, by the hook's own translation."""
    from dp.shell.segment import simple_commands

    sample_project = dict(project, scripts=sorted({*project["scripts"], "SCRIPT", "test"}),
                          dependencies=[*project["dependencies"], "DEPENDENCY"])
    source = "npm" if project["manager"] != "npm" else "pnpm"
    rules = []
    for sample in JAVASCRIPT_SAMPLES:
        sample = sample if source == "npm" else PNPM_SPELLING.get(sample, sample.replace("npm", "pnpm", 1))
        commands = simple_commands(sample)
        if not commands:
            continue
        command = commands[0]
        try:
            rules.append([sample, translate(command, sample_project, trusted)])
        except Skip:
            continue
    return rules


def _python(project, root, trusted: bool) -> dict | None:
    if project is None:
        return None
    if not project["manager"]:
        return _entry("python", "ambiguous" if project.get("ambiguity") else "error",
                      f"not paved: {project.get('ambiguity') or project.get('error')}")
    from dp.rules.tables import load

    commands = load("python-runners")["managers"][project["manager"]]
    if not project["environment"]:
        return _entry("python", "inactive", f"{project['manager']}: {project['reason']}; no environment yet, so nothing "
                      f"is paved (create it with `{commands['sync']}`)")
    if not trusted:
        return _entry("python", "untrusted", f"{project['manager']}: {project['reason']}; environment "
                      f"{project['environment']} → not used: it is the repository's own, so its tools run through "
                      f"`{commands['run']}` only after {_until_trusted(root)}; pip install is advised as "
                      f"`{commands['add']}`", [["pip install PKG", f"(advice) {commands['add']} PKG"]])
    message = (f"{project['manager']}: {project['reason']}; environment {project['environment']} → its tools that are "
               f"not on PATH run through `{commands['run']}` (you trust this repository); pip install is advised as "
               f"`{commands['add']}`")
    return _entry("python", "ok", message, [["pytest ARGS", f"{commands['run']} pytest ARGS"],
                                            ["pip install PKG", f"(advice) {commands['add']} PKG"]])


def _tasks(directory: str, root, trusted: bool) -> dict | None:
    found = tasks(directory)
    if not found or not found.get("runners"):
        return None
    names = [entry["name"] for entry in found["runners"]]
    missing = [word for word in ("make", "just", "npm") if word not in names and not (word == "npm" and set(names) & set(OTHER_MANAGERS))]
    if not missing:
        return _entry("tasks", "ok", f"runners here: {', '.join(names)}; every task command has its runner")
    if not trusted:
        return _entry("tasks", "untrusted", f"runners here: {', '.join(names)}; "
                      f"{', '.join(f'`{word} TASK`' for word in missing)} stay as typed: the one runner that defines "
                      f"the task would run a recipe of the repository, until {_until_trusted(root)}")
    message = (f"runners here: {', '.join(names)}; {', '.join(f'`{word} TASK`' for word in missing)} "
               "run the task through the one runner that defines it (unknown or shared task names stay as typed)")
    return _entry("tasks", "ok", message)


def lines(result: dict, rules: bool = False) -> list:
    """``explain``'s answer as text lines (dp paving); with ``rules``, what each paving rule does
    in this repository's case (dp paving --explain)."""
    from dp.paving.reach import explain_lines

    out = [f"Project paving: {'on' if result['enabled'] else 'off — ' + result['why_off']}"]
    trust = explain_lines(result["root"], result["trusted"])
    out.extend(trust if rules else trust[:1])
    for entry in result["ecosystems"]:
        out.append(f"{entry['status']:<9} {entry['ecosystem']:<10} {entry['message']}")
        out.extend(f"{'':20} {agent}  →  {runs}" for agent, runs in entry["rules"])
    if not result["ecosystems"]:
        out.append("No JavaScript, Python or task-runner project here: nothing to pave.")
    return out


def rules_in_effect(dp_dir: str, cwd: str, trust: tuple = (None, False)) -> list:
    """(ecosystem, why, [(agent's command, what runs)…]) for this directory, if paving is on."""
    result = explain(dp_dir, cwd, with_tasks=False, trust=trust)
    if not result["enabled"]:
        return []
    return [(entry["ecosystem"], entry["message"], entry["rules"]) for entry in result["ecosystems"] if entry["rules"]]


def markdown(dp_dir: str, cwd: str, trust: tuple = (None, False)) -> str:
    """The ``# Project Commands`` section of dp pave --agents-md ('' when nothing is paved here)."""
    found = rules_in_effect(dp_dir, cwd, trust)
    if not found:
        return ""
    out = ["# Project Commands", "", "Use this project's own tools. dp runs these for you if you forget:", ""]
    for ecosystem, why, rules in found:
        out.append(f"## {ecosystem}")
        out.append("")
        out.append(f"How dp decided: {why}.")
        out.append("")
        out.extend(f"- `{agent}` → `{runs}`" for agent, runs in rules)
        out.append("")
    return "\n".join(out)


def text_lines(dp_dir: str, cwd: str, trust: tuple = (None, False)) -> list:
    """The project rules as lines for ``dp aliases``."""
    out = []
    for ecosystem, why, rules in rules_in_effect(dp_dir, cwd, trust):
        out.append(f"Project rules here ({ecosystem}, dp paving): {why}")
        width = max(len(agent) for agent, _ in rules)
        out.extend(f"  {agent:<{width}}  →  {runs}" for agent, runs in rules)
    return out
