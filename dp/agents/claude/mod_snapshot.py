"""The tool-name aliases dp's Claude Code mod applies, as a snapshot file it can read.

The mod (``dp/agents/claude/mod/register.ts``) runs inside the client, with no Python
and no SQLite: it reads ``<dp dir>/claude-mod/aliases.json``. dp rewrites that
file atomically on every rule change, from ``dp.refresh.after_rule_change``
(the one place that keeps installed hook entries in line with the rules), so
the mod never sees a half-written file or a stale rule for long.

``aliases_in_effect`` is the one definition of *which* aliases the mod applies;
anything that adds rules from another source (a trusted project's rules) adds
them there.

The snapshot also holds the mod's front door for Bash (``bash``, ``front_door``):
the words any rule, recipe, trusted project layer or project paving can act
on, so the mod starts ``pave-check`` only for a command with such a word.

The same directory holds what the mod writes back: ``fixes/`` (one file per
call it fixed, moved into the store by ``dp.capture.fixes``) and
``loaded.json`` (its own record of loading, the evidence ``dp doctor`` reads).
"""

from __future__ import annotations

import json
from pathlib import Path

from dp.agents.tools import argument_renames
from dp.files import make_directory, read_bytes, replace_file
from dp.rules.model import TOOL_ALIAS

DIRECTORY = "claude-mod"
SNAPSHOT = "aliases.json"
FIXES = "fixes"
LOADED = "loaded.json"
VERSION = 1


def state_dir(db_path: Path) -> Path:
    """Where the mod's snapshot and records live for the store at ``db_path``."""
    return Path(db_path).expanduser().absolute().parent / DIRECTORY


def aliases_in_effect(db_path: Path) -> list[dict]:
    """Every tool-name alias the mod should apply, as ``{name, tool, args, message}``.

    ``args`` renames the model's argument keys to the target tool's
    (``path`` → ``file_path`` for Read); a target dp knows no parameters of
    (an MCP tool) gets none.
    """
    from dp.store import read_rules

    return [
        {"name": rule.from_name, "tool": rule.to_name, "args": argument_renames(rule.to_name),
         "message": rule.message}
        for rule in read_rules(db_path)
        if rule.match_kind == TOOL_ALIAS and rule.from_name and rule.to_name
    ]


def projects_in_effect(db_path: Path) -> list[dict]:
    """Each trusted repository's tool-name aliases, for sessions inside it only:
    ``{root, files: [{path, text}], aliases}``.

    The snapshot is per user but a project's rules are per repository, and a
    project file acts only while it is exactly what its reader trusted
    (dp.layers). So the entry carries the trusted text of each acting file and
    the mod applies it only when the session's directory is under ``root`` and
    every file still reads as that text: a pulled or edited file is inert in
    the mod the moment it changes, as in the hook, with no dp run in between.
    Local aliases are laid over the project's by name.
    """
    from dp.layers.trusting import trusted_projects
    from dp.store.read import read_or_empty

    projects = read_or_empty(db_path, trusted_projects)
    return [entry for entry in map(_project_entry, projects) if entry is not None]


def _project_entry(project) -> dict | None:
    import hashlib

    from dp.errors import DpError

    by_name, files = {}, []
    for layer in project.layers:
        if not layer.acts:
            continue
        try:
            data = read_bytes(layer.file.real)
        except DpError:
            return None
        if data is None or hashlib.sha256(data).hexdigest() != layer.file.sha256:
            return None  # changed since it was read: the next rule change writes it again
        files.append({"path": layer.file.real, "text": data.decode("utf-8")})
        for rule in layer.file.rules:
            if rule.match_kind == TOOL_ALIAS and rule.from_name and rule.to_name:
                by_name[rule.from_name] = {"name": rule.from_name, "tool": rule.to_name,
                                           "args": argument_renames(rule.to_name), "message": rule.message}
    if not by_name:
        return None
    return {"root": project.root, "files": files, "aliases": list(by_name.values())}


def front_door(db_path: Path) -> dict:
    """What the mod needs to decide whether a Bash call goes to dp at all: the hook's own gate in the
    terms of an in-process front door (dp.hook.gate ``door``: ``words``, ``needs``, ``everything``,
    ``mentions``, ``sources``; the mod reads no more of it)."""
    from dp.hook import gate

    return gate.front_door(db_path)


def target_tools(aliases: list[dict]) -> list[str]:
    """The tools the mod's ``tool.call`` hook listens on: the targets of the aliases."""
    return sorted({alias["tool"] for alias in aliases})


def write(db_path: Path) -> dict:
    """Bring the snapshot in line with the rules; ``{"path", "changed", "aliases"}``.

    Written only on a change (atomically, no backup: it is derived data), so a
    rule change that touches no alias leaves the file alone.
    """
    from dp.errors import DpError

    aliases = aliases_in_effect(db_path)
    projects = projects_in_effect(db_path)
    directory = state_dir(db_path)
    try:
        make_directory(directory / FIXES)
    except OSError as exc:
        raise DpError(f"cannot write the Claude Code mod's snapshot in {directory}: {exc.strerror or exc}") from None
    path = directory / SNAPSHOT
    snapshot = {"version": VERSION, "aliases": aliases, "projects": projects, "bash": front_door(db_path)}
    data = (json.dumps(snapshot, indent=2, ensure_ascii=False) + "\n").encode()
    original = read_bytes(path)
    changed = original != data
    if changed:
        replace_file(path, data, expected=original)
    # Every alias the mod may apply somewhere (the tools its tool.call hook listens on).
    return {"path": str(path), "changed": changed,
            "aliases": aliases + [alias for project in projects for alias in project["aliases"]]}


def load_record(db_path: Path) -> dict | None:
    """The mod's record of its latest load (``session_id``, ``cwd``, ``at``), if it ever loaded."""
    from dp.errors import DpError

    try:
        data = read_bytes(state_dir(db_path) / LOADED)
        record = json.loads(data) if data else None
    except (ValueError, OSError, DpError):
        return None
    return record if isinstance(record, dict) else None
