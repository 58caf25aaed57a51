"""dp's plugin for the agents that load OpenCode's plugins: its files, put in place and taken out again.

OpenCode loads every ``*.ts``/``*.js`` file in the ``plugin/`` and ``plugins/`` directories of each config
directory it reads, and an agent built on OpenCode (Kilo Code) does the same in config directories of its
own. So dp's install there is two files of dp's own, and no file of the user's changes:

* ``plugins/dp.ts``: the one plugin source (``dp/agents/opencode/plugin/dp.ts``) naming the agent
  (``const AGENT``: ``pave-check --agent NAME``), with the Claude Code mod's word scan appended;
* for a user install, ``plugins/dp-NAME.json`` beside it: the absolute ``pave-check`` and ``dp-capture``
  commands (with ``--db`` for a store other than the default), which the agent does not load as a plugin.
  A project install, committed for a team, has none: each person's own dp is found on PATH.

Directories dp had to create are recorded and removed again by ``dp uninstall`` once empty; a ``dp.ts``
that is not dp's is never overwritten. Each agent's ``install`` role is one ``PluginFiles``, and its
``hooks`` role (no entries, the plugin's payloads) a ``PluginHooks``.
"""

from __future__ import annotations

import json
import os
import shlex
from dataclasses import dataclass
from pathlib import Path

from dp.agents import base
from dp.agents.base import Decision
from dp.agents.hookbase import Hooks
from dp.agents.plugin_hooks import BEFORE, INVALID_TOOL, UNAVAILABLE
from dp.errors import DpError

PLUGIN_NAME = "dp.ts"
PLUGIN_DIR = "plugins"
# The plugin's one source, OpenCode's (the agent it was written for), which every copy is made from.
SHIPPED = Path(__file__).parent / "opencode" / "plugin" / PLUGIN_NAME
# The plugin's hooks that ask pave-check and dp-capture, and its time limits (PAVE_TIMEOUT_MS, CAPTURE_TIMEOUT_MS).
EVENTS = ("tool.execute.before", "experimental.chat.system.transform")
CAPTURE_EVENTS = ("tool.execute.after", "event (failed calls)")
PAVE_TIMEOUT_SECONDS = 5
CAPTURE_TIMEOUT_SECONDS = 10

# The hook's word scan and the front door's decision, carried as they are from dp's Claude Code mod
# (one port of dp.shell.words in TypeScript): the block between these lines, appended to the plugin.
MOD = Path(__file__).parent / "claude" / "mod" / "register.ts"
SCAN_START = "// -- the hook's word scan:"
SCAN_END = "// -- end of the word scan --"
# The lines of the shipped plugin that name the agent it serves (a copy for another agent has its own).
AGENT_LINE = "const AGENT = 'opencode'"
FIRST_LINE = "// dp (desire paths) in OpenCode:"


@dataclass(frozen=True)
class PluginFiles:
    """dp's plugin files for one agent that loads OpenCode's plugins: OpenCode itself, or a fork of it
    (Kilo Code) that reads the same hooks from config directories of its own. One plugin source serves
    them all; each copy names its agent (``pave-check --agent NAME``, ``dp-NAME.json``)."""

    agent: str  # dp's name for the agent (--agent)
    display: str  # its name in the plugin's first line
    config_dir: str  # its user config directory under $XDG_CONFIG_HOME (~/.config)
    project_dir: str  # its config directory in a project

    @property
    def config_name(self) -> str:
        """The commands file beside a user's plugin."""
        return f"dp-{self.agent}.json"

    def config_home(self, home=None) -> Path:
        """The agent's user config directory: ``$XDG_CONFIG_HOME/NAME``, else ``~/.config/NAME``."""
        if home is None and os.path.isabs(os.environ.get("XDG_CONFIG_HOME") or ""):
            return Path(os.environ["XDG_CONFIG_HOME"]) / self.config_dir
        return (home or Path.home()) / ".config" / self.config_dir

    def plugin_path(self, scope: str, home=None, project_dir=None) -> Path:
        if scope == "user":
            return self.config_home(home) / PLUGIN_DIR / PLUGIN_NAME
        if scope == "project":
            return (project_dir or Path.cwd()) / self.project_dir / PLUGIN_DIR / PLUGIN_NAME
        raise DpError(f"unknown scope {scope!r} for {self.display}: use user or project")

    def shipped_text(self) -> bytes:
        """The plugin as installed: ``plugin/dp.ts`` naming this agent and, after it, the mod's word scan
        (its functions not exported: the agent would take an exported function for a plugin)."""
        mod = MOD.read_text(encoding="utf-8")
        start = mod.index(SCAN_START)
        scan = mod[start:mod.index(SCAN_END, start) + len(SCAN_END)].replace("\nexport function ", "\nfunction ")
        source = SHIPPED.read_text(encoding="utf-8")
        for line, own in ((AGENT_LINE, f"const AGENT = '{self.agent}'"),
                          (FIRST_LINE, f"// dp (desire paths) in {self.display}:")):
            if source.count(line) != 1:  # the shipped file changed: each copy must still name its agent
                raise RuntimeError(f"{SHIPPED} must hold {line!r} once")
            source = source.replace(line, own)
        return (source + "\n" + scan + "\n").encode()

    def install(self, path: Path, scope: str, pave_command: str, capture_command: str | None) -> dict:
        """Write the plugin (and, for a user, its commands) at ``path``; the report.

        ``created`` lists the directories dp made, outermost first, for ``uninstall``.
        """
        from dp.files import read_bytes, replace_file

        plugin = self.shipped_text()
        existing = read_bytes(path)
        if existing is not None and existing != plugin and not self._is_dps(existing):
            raise DpError(f"{path} exists and is not dp's plugin; move it away or install with the other --scope "
                          "(nothing was changed)")
        created = _make_parents(path.parent, scope)
        status = "already_configured" if existing == plugin else ("updated" if existing is not None else "configured")
        if existing != plugin:
            replace_file(path, plugin, expected=existing)
        config = path.with_name(self.config_name)
        if scope == "user":
            wanted = _config(pave_command, capture_command)
            current = read_bytes(config)
            if current != wanted:
                replace_file(config, wanted, expected=current)
                status = "updated" if status == "already_configured" else status
        capture = None
        if capture_command:
            capture = {"status": status, "events": list(CAPTURE_EVENTS), "command": capture_command, "async": [],
                       "timeout": CAPTURE_TIMEOUT_SECONDS}
        return {"status": status, "scope": scope, "settings": str(path), "plugin": str(path),
                "config": str(config) if scope == "user" else None, "created": [str(d) for d in created],
                "command": pave_command, "timeout": PAVE_TIMEOUT_SECONDS, "events": list(EVENTS), "capture": capture}

    def files(self, path: Path, scope: str, pave_command: str, capture_command: str | None) -> dict:
        """What ``install`` writes: the plugin, and for a user its commands (path → content)."""
        wanted = {path: self.shipped_text()}
        if scope == "user":
            wanted[path.with_name(self.config_name)] = _config(pave_command, capture_command)
        return wanted

    def _is_dps(self, data: bytes) -> bool:
        """A dp plugin of another dp version (its first line names dp), which an install may replace."""
        return data.startswith(f"// dp (desire paths) in {self.display}".encode())

    def uninstall(self, path: Path, details: dict) -> dict:
        """Remove dp's plugin files at ``path`` and the directories dp created that are empty now."""
        from dp.files import read_bytes, remove_empty_directory, remove_file

        removed = 0
        for target in (path, path.with_name(self.config_name)):
            data = read_bytes(target)
            if data is None:
                continue
            if target == path and not (data == self.shipped_text() or self._is_dps(data)):
                raise DpError(f"{path} is no longer dp's plugin; remove it by hand if it should go")
            remove_file(target, expected=data)
            removed += 1
        for directory in reversed([Path(d) for d in details.get("created", ())]):
            if not remove_empty_directory(directory):
                break  # not empty (the user's files), or already gone
        return {"status": "removed" if removed else "not_installed", "removed": removed, "deleted": removed > 0}

    def state(self, path: Path) -> str:
        """What is at ``path``: ``current``, ``outdated`` (another dp version's plugin), ``missing``, ``not dp's``."""
        from dp.files import read_bytes

        try:
            data = read_bytes(path)
        except DpError:
            return "not dp's"
        if data is None:
            return "missing"
        if data == self.shipped_text():
            return "current"
        return "outdated" if self._is_dps(data) else "not dp's"


def _config(pave_command: str, capture_command: str | None) -> bytes:
    """The commands the plugin runs; without capture, a dp-capture that records nothing is still named
    so the plugin's argv is complete (``--help`` prints and exits 0)."""
    capture = shlex.split(capture_command) if capture_command else ["true"]
    return (json.dumps({"pave": shlex.split(pave_command), "capture": capture}, indent=2) + "\n").encode()


def _make_parents(directory: Path, scope: str) -> list[Path]:
    """Create ``directory`` and the missing directories above it, up to the config or project directory."""
    missing: list[Path] = []
    current = directory
    limit = 3 if scope == "project" else 2  # .opencode/plugins, or opencode/plugins (and ~/.config)
    while not current.exists() and len(missing) < limit + 1:
        missing.append(current)
        current = current.parent
    from dp.files import make_directory

    for made in reversed(missing):
        make_directory(made)
    return list(reversed(missing))


class PluginHooks(Hooks):
    """The install side of an agent running dp's OpenCode plugin: no hook entries, the plugin file of its
    ``install`` role (a ``PluginFiles``), its payloads as the plugin sends them. Each agent's ``hooks.py``
    subclasses it (``Hooks.agent`` is found by that module's place)."""

    bench_start, bench_after = "door", 0  # the plugin decides in-process, captures in-process

    def sample_payload(self, tool: str, tool_input: dict, cwd) -> dict:
        """As the plugin sends it; a tool the agent does not have arrives as OpenCode's ``invalid`` tool."""
        args = tool_input
        agent = self.agent
        if not agent.is_own_tool(tool):
            tools = ", ".join(sorted(agent.tool_names))
            tool, args = INVALID_TOOL, {"tool": tool, "error": f"{UNAVAILABLE} '{tool}'. Available tools: {tools}."}
        return {"hook_event_name": BEFORE, "tool": tool, "args": args, "session_id": "ses_dp_sample",
                "call_id": "call_dp_sample", "cwd": str(cwd)}

    def read_answer(self, status: int, stdout: str, stderr: str):
        from dp.agents.answers import json_object

        output = json_object(stdout)
        note = output.get("note")
        note = note if isinstance(note, str) else ""
        if isinstance(output.get("error"), str):
            return Decision(base.DENY, output["error"])
        if isinstance(output.get("args"), dict):
            return Decision(base.REWRITE, note, output["args"])
        return Decision(base.CONTEXT, note) if note else Decision(base.NOTHING)

    def config_path(self, scope: str, home=None, project_dir=None):
        """The plugin file dp installs for ``scope`` (its ``install`` role's; no hook entries to write)."""
        return self.agent.role("install").plugin_path(scope, home, project_dir)

    def hook_entries(self, hook_command: str, rules, extra_words=(), filtered: bool = False) -> dict:
        return {}  # no settings entries: the plugin itself decides which calls ask dp

    def capture_entries(self, capture_command: str) -> dict:
        return {}
