"""``dp uninstall``: take out everything dp put into files it does not own.

The store's ``installs`` record says where dp wrote (hook entries in Claude
Code settings files, dp's block in AGENTS.md/CLAUDE.md, …). Each file gets
back the bytes it had before dp when those are known (see
``dp.install.hook.uninstall``), and a file dp created is deleted once nothing of
the user's is left in it — unless git tracks it: a committed AGENTS.md or
.claude/settings.json is shared with a team, so dp takes only its own part out
and leaves the file (``tracked``). The user, project and local settings of the current
directory are searched too, so a hook installed before dp kept a record is
found as well. ``purge`` also deletes the store, its directory's data
(backups, captured data) and dp's cache.
"""

from __future__ import annotations

import os
from pathlib import Path

from dp.errors import DpError
from dp.files import Rehearsal, read_bytes, rehearsing, remove_empty_directory, remove_file, remove_tree, replace_file
from dp.store import installs

# A kind of install → the function that takes it out of one file: (path, record) -> report.
# A helper that installs a new kind registers its remover here; the remover of a kind written by a role above
# dp.install (Claude Code's plugin, installs.PLUGIN) is handed to ``uninstall`` by the command line, which may look
# that role up (dp.cli.commands.uninstall).
REMOVERS: dict = {}


def plan(db_path: Path, cwd: Path) -> list[installs.Install]:
    """Every place dp installed into: the record, plus unrecorded hooks in this directory's scopes of every agent."""
    from dp.agents import all_agents
    from dp.agents.settings import dp_hooks, parse_settings

    recorded = installs.read(db_path)
    seen = {(entry.path, entry.kind) for entry in recorded}
    found = []
    places = [(scope, agent.hooks().config_path(scope, project_dir=cwd))
              for agent in all_agents() if not agent.plugin for scope in agent.scopes]
    for agent in all_agents():
        for scope in agent.scopes if agent.plugin else ():  # a plugin file of dp's without a record
            path = agent.hooks().config_path(scope, project_dir=cwd)
            key = (installs.key_path(path), installs.AGENT_PLUGIN)
            if key not in seen and agent.role("install").state(path) in ("current", "outdated"):
                found.append(installs.Install(key[0], installs.AGENT_PLUGIN, scope, details={"agent": agent.name}))
                seen.add(key)
    for scope, path in places:
        key = (installs.key_path(path), installs.HOOK)
        if key in seen:
            continue
        try:
            data = read_bytes(path)
            if data is not None and dp_hooks(parse_settings(data, path)):
                found.append(installs.Install(key[0], installs.HOOK, scope))
                seen.add(key)
        except DpError:
            continue  # unreadable settings: dp doctor reports them
    return recorded + found


def uninstall(db_path: Path, cwd: Path, dry_run: bool = False, removers: dict | None = None) -> list[dict]:
    """Remove every install in ``plan``; one report per place (``status`` removed/not_installed/error/would_remove).

    With ``dry_run`` each remover runs in a rehearsal (``dp.files.Rehearsal``): the report says what it
    would do to each file (delete it, or keep it because git tracks it) and nothing changes. ``removers``
    adds to ``REMOVERS`` (kind → remover) the kinds of the roles above dp.install.
    """
    if dry_run and rehearsing() is None:
        with Rehearsal():
            return uninstall(db_path, cwd, dry_run, removers)
    reports = []
    for entry in plan(db_path, cwd):
        remover = {**REMOVERS, **(removers or {})}.get(entry.kind)
        report = {"path": entry.path, "kind": entry.kind, "scope": entry.scope}
        if remover is None:
            reports.append({**report, "status": "error",
                            "error": f"this dp does not know how to remove a {entry.kind!r} install; remove it by hand"})
            continue
        try:
            done = {**report, **remover(Path(entry.path), entry)}
            reports.append({**done, "status": "would_remove"} if dry_run and done["status"] == "removed" else done)
        except DpError as exc:
            reports.append({**report, "status": "error", "error": exc.message})
            continue
        _forget(db_path, entry)
    return reports


def _forget(db_path: Path, entry: installs.Install) -> None:
    from dp.store import Store

    if Path(db_path).exists():
        with Store.open(db_path) as store:
            installs.forget(store, entry.path, entry.kind)


def tracked(path: Path) -> bool:
    """Whether git tracks ``path``: a shared file, which one person's uninstall must never delete.

    Asked of ``git ls-files``; when git cannot say (not installed), a file inside a work tree counts
    as tracked, the safe side of a question dp cannot answer.
    """
    from dp.paths import find_upwards
    from dp.process import run_process

    if not path.exists() or find_upwards(path.parent, ".git") is None:
        return False
    try:
        listed = run_process(["git", "ls-files", "--error-unmatch", "--", path.name], cwd=path.parent, timeout=30)
    except (DpError, OSError):
        return True
    return listed.exit_code == 0


def tracked_in(directory: Path) -> set[Path] | None:
    """The files under ``directory`` that git tracks (``set()``: none, or not in a work tree);
    None when git cannot say, which counts as "all of them" (the safe side)."""
    from dp.paths import find_upwards
    from dp.process import run_process

    if not directory.is_dir() or find_upwards(directory, ".git") is None:
        return set()
    try:
        listed = run_process(["git", "ls-files", "-z", "--", "."], cwd=directory, timeout=30)
    except (DpError, OSError):
        return None
    if listed.exit_code != 0:
        return set()
    return {directory / name for name in listed.output.split("\0") if name}


def remove_untracked(directory: Path) -> list[Path]:
    """Delete ``directory`` with everything in it, except what git tracks: a committed file is the
    team's, and one person's uninstall never deletes it. Returns the tracked files kept (sorted)."""
    kept = tracked_in(directory)
    if kept is None:
        return sorted(path for path in directory.rglob("*") if path.is_file() or path.is_symlink())
    if not kept:
        remove_tree(directory)
        return []
    for path in sorted(directory.rglob("*"), reverse=True):  # files before the directories holding them
        if path in kept:
            continue
        if path.is_dir() and not path.is_symlink():
            remove_empty_directory(path)
        else:
            data = read_bytes(path) if not path.is_symlink() else None
            if data is not None:
                remove_file(path, expected=data)
    return sorted(kept)


def _deletable(path: Path, entry: installs.Install) -> bool:
    """Whether dp may delete ``path`` once its own part is out: dp created it and git does not track it."""
    return entry.created_file and not tracked(path)


def _remove_hook(path: Path, entry: installs.Install) -> dict:
    from dp.install import hook

    shared = tracked(path)
    result = hook.uninstall(path, entry.scope or "custom", keep_file=shared)
    deleted = bool(result.get("deleted")) or (not shared and _delete_if_emptied(path, entry))
    kept = {"kept_tracked": True} if shared and result["status"] == "removed" else {}
    made = _remove_made_directories(entry) if deleted else []
    return {"status": result["status"], "removed": result.get("removed", 0), "deleted": deleted, **kept,
            **({"directories": made} if made else {})}


def _remove_made_directories(entry: installs.Install) -> list[str]:
    """The directories dp made for the file (``~/.codex``, ``~/.claude``), innermost first, removed while
    empty: one holding anything (the agent's own files, once it ran) stays. Returns those removed, or
    in a dry run those that would be (empty but for the file the rehearsal deleted)."""
    removed = []
    for directory in reversed(entry.details.get("created", [])):
        path = Path(directory)
        if rehearsing() is not None:
            left = [child for child in path.iterdir() if str(child) != entry.path] if path.is_dir() else [None]
            if left and any(str(child) not in removed for child in left):
                break
            removed.append(directory)
        elif remove_empty_directory(path) or not path.exists():  # (a project's .claude/ went with its file)
            removed.append(directory)
        else:
            break
    return removed


def _delete_if_emptied(path: Path, entry: installs.Install) -> bool:
    """A JSON file dp created and that holds nothing now (``{}``) goes, as it was before dp (untracked)."""
    if not _deletable(path, entry):
        return False
    data = read_bytes(path)
    if data is None or data.strip() not in (b"{}", b""):
        return False
    remove_file(path, expected=data)
    return True


def _remove_block(path: Path, entry: installs.Install) -> dict:
    from dp.install.markers import without_block

    original = read_bytes(path)
    if original is None:
        return {"status": "not_installed", "deleted": False}
    text = without_block(original.decode("utf-8"), path)
    if text is None:
        return {"status": "not_installed", "deleted": False}
    shared = tracked(path)
    if not text.strip() and entry.created_file and not shared:
        remove_file(path, expected=original)
        return {"status": "removed", "deleted": True}
    replace_file(path, text.encode("utf-8"), expected=original, backup=True)
    return {"status": "removed", "deleted": False, **({"kept_tracked": True} if shared else {})}


def _remove_mcp(path: Path, entry: installs.Install) -> dict:
    from dp.install import mcp

    result = mcp.uninstall(entry.scope if entry.scope in ("user", "project") else None, path=path)
    return {"status": result["status"], "deleted": _delete_if_emptied(path, entry)}


def _remove_import_line(path: Path, entry: installs.Install) -> dict:
    from dp.agents import get

    shared = tracked(path)
    status = get().role("instructions").remove_import(path, created_file=entry.created_file and not shared)
    kept = {"kept_tracked": True} if shared and status == "removed" else {}
    return {"status": "removed" if status == "deleted" else status, "deleted": status == "deleted", **kept}


def _remove_agent_plugin(path: Path, entry: installs.Install) -> dict:
    from dp.install import agent_plugin

    return agent_plugin.remove(path, entry)


REMOVERS.update({
    installs.AGENT_PLUGIN: _remove_agent_plugin,
    installs.HOOK: _remove_hook,
    installs.BLOCK: _remove_block,
    installs.MCP: _remove_mcp,
    installs.IMPORT_LINE: _remove_import_line,
})


def purge_targets(db_path: Path) -> list[Path]:
    """What ``--purge`` deletes: the store (and its WAL files and hook gate), dp's own directory, dp's cache."""
    from dp.cachedir import cache_dir
    from dp.store import DEFAULT_DB
    from dp.store.location import hook_gate

    store = Path(db_path).expanduser().absolute()
    targets = [store, Path(f"{store}-wal"), Path(f"{store}-shm")]
    home = DEFAULT_DB.expanduser().absolute().parent  # ~/.dp: backups, captured data, switches
    if home not in store.parents:  # a store elsewhere (--db): its gate beside it; in ~/.dp it goes with it
        targets.append(Path(hook_gate(store)))
    targets.append(home)
    targets.append(Path(cache_dir()))
    return [path for path in dict.fromkeys(targets) if path.exists() or path.is_symlink()]


def team_kept(db_path: Path) -> list[dict]:
    """What ``--purge`` cannot take back: the events this store uploaded to a team database (``dp team sync``)
    stay there. ``{"url", "machine", "delete"}`` per database, ``delete`` being the statement that removes
    this machine's rows, which only the database's owner may run (members hold no privilege on the table:
    docs/team.md)."""
    from dp.team import config

    state = config.load(db_path)
    machine = state.get("machine")
    found = state.get("databases")
    databases = found if isinstance(found, dict) else {}
    return [{"url": url, "machine": machine, "delete": f"DELETE FROM dp_events WHERE machine = '{machine}'"}
            for url, mark in databases.items()
            if isinstance(machine, str) and machine.isalnum() and isinstance(mark, dict) and mark.get("sent_up_to")]


def purge(targets: list[Path]) -> list[Path]:
    """Delete ``targets``; then the directories above dp's cache that dp made (``~/.cache`` on a new
    machine) if nothing else is in them now. Returns those (the targets are the caller's to report)."""
    from dp.cachedir import cache_dir, made_above

    above = [Path(directory) for directory in made_above()] if Path(cache_dir()) in targets else []
    _delete(targets)
    emptied = []
    for directory in above:
        if not remove_empty_directory(directory):
            break
        emptied.append(directory)
    return emptied


def _delete(targets: list[Path]) -> None:
    for path in targets:
        if path.is_dir() and not path.is_symlink():
            remove_tree(path)
            continue
        try:
            os.unlink(path)
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise DpError(f"cannot remove {path}: {exc.strerror or exc}") from None
