"""dp as a Claude Code plugin: its files, its local marketplace, installing and removing it.

A plugin is how Claude Code users install a bundle now: dp's settings hooks
(pave-check with its ``if`` filters, SessionStart, PostToolBatch, dp-capture),
``dp mcp``, and the mod (``dp/agents/claude/mod/register.ts``) that turns a call of a
hallucinated tool name into the real tool. The plugin lives in a marketplace
directory of its own (its files: ``marketplace``) and is installed with the real ``claude plugin`` commands.

Two scopes:

* **user** (one person, every project): the marketplace is ``~/.dp/claude-plugin``
  (beside the store), the commands are the absolute paths of the installed dp
  (the stable-install rules of ``dp init``), and dp's entries leave
  ``~/.claude/settings.json`` so no hook runs twice.
* **project** (a team): the marketplace is ``.claude/dp-plugin`` in the
  repository, the committed ``.claude/settings.json`` declares and enables it,
  and every command goes through ``bin/dp-run``, which finds each teammate's
  own dp (PATH, or where dp's documented installs put it). Without dp the hooks
  do nothing, the mod passes everything through, and SessionStart says once
  how to install dp.

The installed copy is the client's (it copies the plugin into its cache), so
a change to the hook entries (new ``if`` filters) is a new plugin version:
the "sync" role (``sync.py``) rewrites the files and updates the installed plugin only then. The
tools the mod's ``tool.call`` listens on are the plugin's ``tools`` option,
which dp keeps in the user's settings (``pluginConfigs``) without a new version.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
from pathlib import Path

from dp.agents.claude import mod_snapshot
from dp.agents.claude.client import MODS_SINCE, spelled
from dp.agents.claude.marketplace import MARKETS, NAME, PROJECT_DIR, SCOPES, files, market_dir, plugin_id, write_files
from dp.agents.settings import dump_settings, parse_settings, settings_path
from dp.errors import DpError
from dp.files import read_bytes, remove_empty_directory, replace_file, would_run
from dp.store import Store, installs

# The first release whose mods load (dp.agents.claude.client.MODS_SINCE), as init and doctor print it.
MODS_FROM = spelled(MODS_SINCE)
CLAUDE_TIMEOUT_SECONDS = 120


def check_scope(scope: str | None) -> str:
    scope = scope or "user"
    if scope not in SCOPES:
        raise DpError(f"unknown scope {scope!r} for --plugin: use user (every project) or project (this repository)")
    return scope


def refuse_settings_hooks(db_path: Path, scope: str, agent=None) -> None:
    """dp's Claude Code settings entries beside a user-scope plugin would run every hook twice: refuse them."""
    if scope != "user" or (agent is not None and agent.name != "claude"):  # the plugin is Claude Code's
        return
    for entry in installs.read(db_path, installs.PLUGIN):
        if entry.scope == "user":
            raise DpError(f"dp's hooks already come with the Claude Code plugin {plugin_id('user')}; entries in your "
                          "settings too would run every hook twice. Update the plugin with dp init --plugin, or "
                          "take it out first with dp uninstall (nothing was changed)")


# -- the client's side ----------------------------------------------------------


def claude_program() -> str | None:
    return shutil.which("claude")


def mods_load() -> str | None:
    """The release of the ``claude`` the plugin's commands run when it loads mods (None otherwise): where
    it does, a plain ``dp init`` installs the plugin, whose mod is the front door that starts no dp
    process for an ordinary call; elsewhere it writes the settings hooks with their ``if`` filters."""
    from dp.agents.claude.client import version_of

    claude = claude_program()
    version = version_of(claude) if claude else None
    return spelled(version) if version is not None and version >= MODS_SINCE else None


def run_claude(claude: str, *args: str, cwd: Path) -> dict:
    """One ``claude plugin …`` command: ``{"command", "ok", "output"}``."""
    argv = [claude, "plugin", *args]
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, cwd=cwd, timeout=CLAUDE_TIMEOUT_SECONDS,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return {"command": shlex.join(argv[1:]), "ok": False, "output": str(exc)}
    output = (proc.stdout + proc.stderr).strip().splitlines()
    return {"command": "claude plugin " + shlex.join(args), "ok": proc.returncode == 0, "output": " ".join(output[-2:])}


def client_steps(scope: str, directory: Path) -> list[list[str]]:
    """The ``claude plugin`` commands that add the marketplace, install the plugin and bring it to
    this version (each one a no-op when its work is done: the client answers 0)."""
    where = "user" if scope == "user" else "local"  # project: each person's own, the commit is shared
    return [["marketplace", "add", str(directory), "--scope", where], ["marketplace", "update", MARKETS[scope]],
            ["install", plugin_id(scope), "--scope", where], ["update", plugin_id(scope), "--scope", where]]


def removal_steps(scope: str) -> list[list[str]]:
    where = "user" if scope == "user" else "local"
    return [["uninstall", plugin_id(scope), "--scope", where], ["marketplace", "remove", MARKETS[scope]]]


def run_steps(steps: list[list[str]], cwd: Path) -> dict:
    """Run the steps with the ``claude`` on PATH; without one, the commands to run by hand.
    A dry run records them (as having worked) and runs nothing."""
    commands = ["claude plugin " + shlex.join(step) for step in steps]
    if [command for command in commands if would_run(command)]:
        return {"ran": True, "commands": commands, "ok": True,
                "results": [{"command": command, "ok": True, "output": ""} for command in commands]}
    claude = claude_program()
    if claude is None:
        return {"ran": False, "commands": commands}
    results = []
    for step in steps:
        result = run_claude(claude, *step, cwd=cwd)
        results.append(result)
    return {"ran": True, "commands": commands, "results": results,
            "ok": all(r["ok"] or _harmless(r) for r in results)}


def _harmless(result: dict) -> bool:
    """A step that failed because its work was already done (marketplace already added, plugin not installed)."""
    text = result["output"].lower()
    return "already" in text or "not installed" in text or "not found" in text and "uninstall" in result["command"]


# -- settings the plugin needs ------------------------------------------------------


def _edit_settings(path: Path, change) -> bool:
    """Apply ``change(settings)`` to one settings file, written (atomically, with a backup) only
    when it changed something; whether it did."""
    original = read_bytes(path)
    settings = parse_settings(original, path)
    before = json.dumps(settings)
    change(settings)
    if json.dumps(settings) == before:
        return False
    replace_file(path, dump_settings(settings, original), expected=original, backup=original is not None)
    return True


def _object(settings: dict, key: str, path: Path) -> dict:
    value = settings.setdefault(key, {})
    if not isinstance(value, dict):
        raise DpError(f'{path}: "{key}" is not a JSON object; fix it by hand (nothing was changed)')
    return value


def enable_in_project(path: Path) -> bool:
    """The committed project settings declare the marketplace and enable the plugin."""
    def change(settings: dict) -> None:
        markets = _object(settings, "extraKnownMarketplaces", path)
        markets[MARKETS["project"]] = {"source": {"source": "directory", "path": f"./{PROJECT_DIR.as_posix()}"}}
        _object(settings, "enabledPlugins", path)[plugin_id("project")] = True

    return _edit_settings(path, change)


def sync_options(path: Path, scope: str, tools: list[str]) -> bool:
    """``pluginConfigs[<plugin>].options.tools`` in the user's settings: what the mod's tool.call
    listens on. Claude Code reads plugin options from user settings only, never a project's."""
    def change(settings: dict) -> None:
        configs = _object(settings, "pluginConfigs", path)
        entry = configs.setdefault(plugin_id(scope), {})
        if not isinstance(entry, dict):
            raise DpError(f'{path}: "pluginConfigs.{plugin_id(scope)}" is not a JSON object; fix it by hand')
        options = entry.setdefault("options", {})
        if isinstance(options, dict):
            options["tools"] = list(tools)

    return _edit_settings(path, change)


def forget_settings(path: Path, scope: str) -> bool:
    """Take every key the plugin added out of one settings file (what the client left behind)."""
    ident, market = plugin_id(scope), MARKETS[scope]

    def change(settings: dict) -> None:
        for key, name in (("extraKnownMarketplaces", market), ("enabledPlugins", ident), ("pluginConfigs", ident)):
            value = settings.get(key)
            if isinstance(value, dict):
                value.pop(name, None)
                if not value:  # left empty by the client's own uninstall or by this one: nothing of anyone's
                    del settings[key]

    if read_bytes(path) is None:
        return False
    return _edit_settings(path, change)


def _drop_settings_hooks(path: Path, scope: str, db_path: Path) -> dict | None:
    """dp's entries out of a settings file the plugin now stands in for (never the same hook twice)."""
    from dp.install import hook

    if read_bytes(path) is None:
        return None
    result = hook.uninstall(path, scope, db_path)
    return result if result["status"] == "removed" else None


# -- install, sync, uninstall ----------------------------------------------------------


def install(scope: str | None, db_path: Path, cwd: Path, permission: str = "none", mode: str = "rewrite",
            capture: bool = True) -> dict:
    """``dp init --plugin`` / ``dp pave --plugin``: write the plugin and its marketplace, install it
    with ``claude plugin`` (or say how), and leave no dp entry in the settings it replaces."""
    scope = check_scope(scope)
    directory = market_dir(scope, db_path, cwd)
    installs.require_recordable(directory)
    snapshot = mod_snapshot.write(db_path)
    existed = (directory / ".claude-plugin" / "marketplace.json").exists()
    changed = write_files(directory, files(scope, db_path, permission, mode, capture))
    user_settings = settings_path("user")
    report = {"scope": scope, "plugin": plugin_id(scope), "marketplace": str(directory), "changed": changed,
              "snapshot": snapshot["path"], "aliases": len(snapshot["aliases"])}
    if scope == "project":
        project_settings = settings_path("project", project_dir=cwd)
        created_settings = read_bytes(project_settings) is None or _recorded(db_path, directory).get("created_settings")
        report["project_settings"] = str(project_settings)
        report["enabled"] = enable_in_project(project_settings)
        report["removed_hooks"] = _drop_settings_hooks(project_settings, "project", db_path)
    else:
        report["removed_hooks"] = _drop_settings_hooks(user_settings, "user", db_path)
    report["client"] = run_steps(client_steps(scope, directory), cwd)
    sync_options(user_settings, scope, mod_snapshot.target_tools(snapshot["aliases"]))
    with Store.open(db_path) as store:
        installs.record(store, directory, installs.PLUGIN, scope, created_file=not existed,
                        details={"plugin": plugin_id(scope), "permission": permission, "mode": mode,
                                 "capture": capture, "cwd": str(Path(cwd).absolute()),
                                 "created_settings": scope == "project" and bool(created_settings)})
    return report


def committed_plugin(cwd: Path) -> Path | None:
    """The team's plugin committed in the repository around ``cwd`` (its marketplace directory), if
    any: looked for from ``cwd`` up to the repository's root and never above it (a plugin in a
    parent directory is no repository's), and only in the shape ``dp pave --plugin --scope
    project`` writes (a marketplace ``dp-project`` whose plugin ``dp`` is its ``./dp``, so what
    the client installs is the directory ``dp trust`` pinned)."""
    from dp.layers.locate import repo_root
    from dp.paths import find_upwards

    start = Path(cwd).absolute()
    top = repo_root(str(start))
    if top is None:
        return None
    marker = PROJECT_DIR / ".claude-plugin" / "marketplace.json"
    root = find_upwards(start, str(marker), stop=top)
    if root is None:
        return None
    try:
        market = json.loads(read_bytes(root / marker) or b"{}")
        entries = market.get("plugins")
        ours = market.get("name") == MARKETS["project"] and isinstance(entries, list) and [
            entry.get("source") for entry in entries if isinstance(entry, dict) and entry.get("name") == NAME] == [
            f"./{NAME}"]
    except (ValueError, AttributeError, DpError):
        return None
    return root / PROJECT_DIR if ours else None


def registered_here(project: Path, installed: Path | None = None) -> bool:
    """Whether this person's Claude Code has the team's plugin installed for ``project`` (its own
    record, ``~/.claude/plugins/installed_plugins.json``: local scope, this project's path)."""
    path = installed or Path.home() / ".claude" / "plugins" / "installed_plugins.json"
    try:
        entries = json.loads(read_bytes(path) or b"{}").get("plugins", {}).get(plugin_id("project"), [])
        return any(entry.get("projectPath") and Path(entry["projectPath"]).resolve() == project.resolve()
                   for entry in entries if isinstance(entry, dict))
    except (ValueError, AttributeError, OSError):
        return False


def register_committed(cwd: Path, db_path: Path, dry_run: bool = False) -> dict | None:
    """``dp init`` in a clone whose committed team plugin this person has not registered: register it
    for them only (local scope), as the two ``claude plugin`` commands of its README would, when
    they trusted it (``dp trust``: its files pinned, unchanged since). The plugin is the
    committer's code, run in every session here, so one nobody trusted (or one changed since)
    is not registered: the report says so (``state``) and runs nothing.

    None when there is no committed plugin or it is registered already (the client runs the copy
    it installed then, and dp never updates a project's plugin).
    """
    from dp.layers.effective import TRUSTED
    from dp.layers.trusting import plugin_state

    directory = committed_plugin(cwd)
    if directory is None:
        return None
    project = directory.parent.parent
    if registered_here(project):
        return None
    _, state = plugin_state(db_path, directory)
    if state != TRUSTED:
        return {"plugin": plugin_id("project"), "project": str(project), "marketplace": str(directory),
                "state": state}
    steps = [["marketplace", "add", f"./{PROJECT_DIR.as_posix()}", "--scope", "local"],
             ["install", plugin_id("project"), "--scope", "local"]]
    if dry_run:
        return {"commands": ["claude plugin " + shlex.join(step) for step in steps]}
    return {"plugin": plugin_id("project"), "project": str(project), "state": state, **run_steps(steps, project)}


def _recorded(db_path: Path, directory: Path) -> dict:
    """The details of an earlier install of the plugin at ``directory`` ({} when there was none)."""
    key = installs.key_path(directory)
    return next((entry.details for entry in installs.read(db_path, installs.PLUGIN) if entry.path == key), {})


def uninstall(path: Path, entry: installs.Install) -> dict:
    """Remove one plugin install: the client's record of it, the keys in settings, its files."""
    scope = entry.scope if entry.scope in SCOPES else "user"
    cwd = Path(entry.details.get("cwd") or path.parent)
    client = run_steps(removal_steps(scope), cwd if cwd.is_dir() else Path.home())
    touched = [str(p) for p in _settings_to_clean(scope, cwd) if forget_settings(p, scope)]
    existed = path.exists()
    from dp.install.uninstall import remove_untracked, tracked

    kept = remove_untracked(path) if existed else []  # a committed plugin is the team's: its files stay
    project_settings = settings_path("project", project_dir=cwd)
    if scope == "project" and entry.details.get("created_settings") and not tracked(project_settings):
        _delete_if_empty(project_settings)
    if existed and not kept:
        _remove_if_empty(path.parent)
    return {"status": "removed" if existed or touched else "not_installed", "deleted": existed and not kept,
            "client": client, "settings": touched, **({"kept_tracked": [str(p) for p in kept]} if kept else {})}


def _settings_to_clean(scope: str, cwd: Path) -> list[Path]:
    paths = [settings_path("user")]
    if scope == "project":
        paths += [settings_path("project", project_dir=cwd), settings_path("local", project_dir=cwd)]
    return paths


def _delete_if_empty(path: Path) -> None:
    """A settings file dp created for the plugin goes once nothing is left in it."""
    from dp.files import remove_file

    data = read_bytes(path)
    if data is not None and not parse_settings(data, path):
        remove_file(path, expected=data)


def _remove_if_empty(directory: Path) -> None:
    remove_empty_directory(directory)  # holds something else: not ours, it stays
