"""dp as a Claude Code plugin: its files, its local marketplace, installing and removing it.

A plugin is how Claude Code users install a bundle now: dp's settings hooks
(pave-check with its ``if`` filters, SessionStart, PostToolBatch, dp-capture),
``dp mcp``, and the mod (``dp/agents/claude/mod/register.ts``) that turns a call of a
hallucinated tool name into the real tool. The plugin lives in a marketplace
directory of its own and is installed with the real ``claude plugin`` commands.

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

import hashlib
import json
import shlex
import shutil
import subprocess
from importlib import resources
from pathlib import Path

from dp import DISTRIBUTION, INSTALL_HINT
from dp.agents.claude import filters, mod_snapshot
from dp.agents.claude.client import MODS_SINCE, spelled
from dp.agents.settings import capture_entries, dump_settings, parse_settings, settings_path
from dp.errors import DpError
from dp.files import read_bytes, remove_empty_directory, replace_file, set_mode, would_run
from dp.store import Store, installs

NAME = "dp"
# The first release whose mods load (dp.agents.claude.client.MODS_SINCE), as init and doctor print it.
MODS_FROM = spelled(MODS_SINCE)
MARKETS = {"user": "dp-local", "project": "dp-project"}
SCOPES = tuple(MARKETS)
PROJECT_DIR = Path(".claude") / "dp-plugin"
RUNNER = "bin/dp-run"
MOD_FILES = ("register.ts", "register.test.ts")
CLAUDE_TIMEOUT_SECONDS = 120
MISSING_DP = (f"dp (desire paths) is enabled for this project but not installed on this machine: {INSTALL_HINT}, "
              "then start a new session.")


def plugin_id(scope: str) -> str:
    return f"{NAME}@{MARKETS[scope]}"


def market_dir(scope: str, db_path: Path, cwd: Path) -> Path:
    if scope == "user":
        return mod_snapshot.state_dir(db_path).parent / "claude-plugin"
    return Path(cwd).absolute() / PROJECT_DIR


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


# -- the plugin's files ----------------------------------------------------------


def files(scope: str, db_path: Path, permission: str = "none", mode: str = "rewrite",
          capture: bool = True) -> dict[str, bytes]:
    """Every file of the marketplace (relative path → bytes), the plugin under ``dp/``."""
    plugin = {
        "hooks/hooks.json": _json(_hooks(scope, db_path, permission, mode, capture)),
        ".mcp.json": _json({"mcpServers": {NAME: _mcp_server(scope, db_path)}}),
        "README.md": _text("README.md").replace("{scope}", scope).encode(),
        "LICENSE": _text("LICENSE").encode(),
    }
    for name in MOD_FILES:
        plugin[f"hooks/{name}"] = _text(name).encode()
    if scope == "user":  # the front door needs the user's own filters; a team plugin has one plain handler
        config = {"state": str(mod_snapshot.state_dir(db_path)),
                  "pave_check": _pave_check_command(scope, db_path, permission, mode)}
        if capture:  # the mod runs dp-capture itself where it is the front door
            config["capture"] = _capture_command(scope, db_path)
        plugin["hooks/dp-plugin.json"] = _json(config)
    else:
        plugin[RUNNER] = _text("dp-run").replace("{missing}", MISSING_DP).replace("{distribution}", DISTRIBUTION).encode()
    plugin[".claude-plugin/plugin.json"] = _json(_manifest(plugin))
    market = {".claude-plugin/marketplace.json": _json(_marketplace(scope))}
    market.update({f"{NAME}/{path}": data for path, data in plugin.items()})
    return market


def _manifest(plugin_files: dict[str, bytes]) -> dict:
    """plugin.json; its version carries a digest of the files, so a changed hook entry is an update."""
    from dp import __version__

    digest = hashlib.sha256(b"".join(path.encode() + data for path, data in sorted(plugin_files.items())))
    return {
        "name": NAME,
        "version": f"{__version__}-{digest.hexdigest()[:10]}",
        "description": "dp (desire paths): corrects the tool calls AI agents get wrong — rewrites, "
                       "tool-name fixes, project tools over MCP.",
        "author": {"name": "dp"},
        "license": "MIT",
        "userConfig": {
            "tools": {
                "type": "string", "multiple": True, "required": False, "title": "Tools dp's mod fixes calls into",
                "description": "Kept in sync by dp: the tools your dp rules map hallucinated names to.",
            },
        },
    }


def _marketplace(scope: str) -> dict:
    return {
        "name": MARKETS[scope],
        "owner": {"name": "dp"},
        "description": "dp's own plugin, generated by dp init --plugin",
        "plugins": [{"name": NAME, "source": f"./{NAME}", "description": "dp (desire paths) for Claude Code"}],
    }


# The variable dp's mod sets to the session's id once it is the front door for Bash
# (register.ts spells it too): the classic Bash handler then steps aside.
FRONT_DOOR_VARIABLE = "DP_MOD_FRONT_DOOR"


def _pave_check_command(scope: str, db_path: Path, permission: str, mode: str) -> str:
    """The pave-check command line of the plugin's hooks (the mod runs the same one)."""
    if scope == "user":
        from dp.install import hook

        return hook.command_for(db_path, permission, mode)
    return _runner_command("pave-check", permission, mode)


def _hooks(scope: str, db_path: Path, permission: str, mode: str, capture: bool) -> dict:
    """hooks.json: dp's settings hooks plus the mod."""
    from dp.install import hook

    command = _pave_check_command(scope, db_path, permission, mode)
    if scope == "user":
        entries = hook.wanted_entries(command, filtered=_filtered(), db_path=db_path)
    else:  # each teammate's own rules: one plain handler (their filters are not known here)
        entries = filters.wanted(command, [], filtered=False)
    if capture:
        entries.update(capture_entries(_capture_command(scope, db_path)))
    _step_aside_for_the_mod(entries)
    return {"description": "dp: pave-check, the corrections, capture, and the tool-name mod",
            "modules": ["./register.ts"], "hooks": entries}


def _capture_command(scope: str, db_path: Path) -> str:
    """The dp-capture command line of the plugin's hooks (a user-scope mod runs the same one)."""
    if scope == "user":
        from dp.install import hook

        return hook.capture_command_for(db_path)
    return _runner_command("dp-capture")


def _step_aside_for_the_mod(entries: dict) -> None:
    """The classic Bash, PostToolBatch and capture handlers run dp only when the mod is not the front door.

    Where the mod loads it answers ``classic.PreToolUse`` for Bash itself
    (starting pave-check only for a command with a word dp can act on),
    ``classic.PostToolBatch`` (only after a batch with a refused tool name) and
    the capture events (dp-capture only for a failure, the calls just after it
    and a call it fixed), and sets
    ``DP_MOD_FRONT_DOOR`` to the session's id; the client runs these handlers
    through a shell, whose builtin test then ends them before any dp process
    starts. Where mods do not load (older clients, the rollout switch off) the
    variable is unset and the handler runs dp exactly as before. The id,
    not a flag, keeps a session started inside a Bash command (which inherits the
    variable) from skipping dp when its own mod did not load.
    """
    from dp.agents.settings import CAPTURE_EVENTS
    from dp.rules.model import BASH_TOOL

    groups = [group for group in entries.get(filters.PRE, []) if group.get("matcher") == BASH_TOOL]
    groups += entries.get(filters.POST_TOOL_BATCH, [])
    for event in CAPTURE_EVENTS:
        groups += entries.get(event, [])
    for group in groups:
        for handler in group["hooks"]:
            handler["command"] = (f'[ "${{{FRONT_DOOR_VARIABLE}:-}}" = "${{CLAUDE_CODE_SESSION_ID:-}}" ] '
                                  f'&& [ -n "${{CLAUDE_CODE_SESSION_ID:-}}" ] || exec {handler["command"]}')


def _filtered() -> bool:
    from dp.agents.claude.client import filter_support

    return bool(filter_support()["filtered"])


def _runner_command(program: str, permission: str = "none", mode: str = "rewrite") -> str:
    words = [program]
    if permission != "none":
        words += ["--permission", permission]
    if mode != "rewrite":
        words += ["--mode", mode]
    return '"${CLAUDE_PLUGIN_ROOT}/' + RUNNER + '" ' + shlex.join(words)


def _mcp_server(scope: str, db_path: Path) -> dict:
    if scope == "project":
        return {"command": "${CLAUDE_PLUGIN_ROOT}/" + RUNNER, "args": ["dp", "mcp"]}
    from dp.install.hook import db_option
    from dp.install.mcp import server_command

    command, args = server_command()
    db = db_option(db_path)
    return {"command": command, "args": [*(["--db", str(db)] if db else []), *args]}


def _text(name: str) -> str:
    return resources.files("dp.agents.claude").joinpath("mod", name).read_text(encoding="utf-8")


def _json(value) -> bytes:
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode()


def write_files(directory: Path, wanted: dict[str, bytes]) -> bool:
    """Make ``directory`` hold exactly ``wanted`` (files dp wrote before and no longer wants go);
    whether anything changed."""
    changed = False
    for relative, data in wanted.items():
        path = directory / relative
        original = read_bytes(path)
        mode = 0o755 if relative.endswith(RUNNER) else None
        if original != data:
            replace_file(path, data, expected=original, mode=mode)
            changed = True
        elif mode is not None:
            set_mode(path, mode)
    return changed


# -- the client's side ----------------------------------------------------------


def claude_program() -> str | None:
    return shutil.which("claude")


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
