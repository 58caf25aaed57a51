"""The catalogue of an agent's roles: dp's extension points for an agent, one ``Protocol`` each.

An agent is the folder ``dp/agents/<agent>/``; each role it plays is the module named after the role
(``wire.py``, ``doctor.py``, ``sessions.py`` …), which the rest of dp finds by that name alone
(``Agent.role``, ``Agent.has_role``), importing it only when asked: a role the folder has no file for
is a role the agent does not play. Each ``Protocol`` below is what such a module provides, with
the signatures its callers use; ``tests/test_agent_roles.py`` holds every folder to them. A module of
the folder that is no role (``fake_api``, ``client``, Claude Code's ``filters``, Codex CLI's ``trust``
and ``rollout``) is a helper of its own roles, which no module outside the folder imports.

Read by the tests and by ``Agent.role`` only (``typing`` is no module for the hook's path).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol, runtime_checkable


class Adapter(Protocol):
    """What ``wire.ADAPTER``, a ``dp.agents.base.Agent`` subclass, implements itself (``Agent`` gives the rest:
    spelling tools and rules in the agent's words, finding its roles, the defaults). The hook's path calls
    ``read_event`` (which reads a session's start itself and asks ``tool_event`` for a tool call; an agent
    whose payloads name no hook event overrides ``read_event`` instead) and ``answer``; the install side is
    the agent's "hooks" role (``Hooks``), which the hook's path never imports."""

    def tool_event(self, kind: str, hook: str, payload: dict) -> Any:
        """The ``Event`` of the tool call in the agent's ``payload`` of dp's ``kind``; None without a tool."""

    def answer(self, event: Any, decision: Any) -> tuple:
        """(exit status, stdout, stderr) for dp's ``Decision`` in the agent's contract, never widening."""


@runtime_checkable
class Wire(Protocol):
    """``wire.py`` (every agent): the agent's hook wire format, imported on each of its hook calls
    (stdlib only): ``ADAPTER``, the ``dp.agents.base.Agent`` subclass reading its payloads, answering in its
    contract and naming its tools (``Adapter``); which of dp's promises it keeps is data, its folder's
    ``promises.json`` (``Agent.promises``)."""

    ADAPTER: type


@runtime_checkable
class Hooks(Protocol):
    """``hooks.py`` (every agent): the install side of the agent's hooks, its ``HOOKS`` (``INSTANCES``), an
    instance of a ``dp.agents.hookbase.Hooks`` subclass, which gives Claude Code's shapes as defaults; reached
    through ``Agent.hooks()``. Apart from ``wire.py`` because the hook's path never needs it: ``dp init``,
    ``dp pave --hook``, ``dp uninstall`` and ``dp doctor`` write, prove and check the entries with it, the
    same for every agent, through the one lossless settings writer (``dp.agents.settings``)."""

    install_notes: tuple  # lines the install commands add about the entries (how the agent treats them)

    def sample_payload(self, tool: str, tool_input: dict, cwd: Any) -> dict:
        """A before-tool payload as the agent sends it: ``dp init``'s demonstration and ``dp doctor`` run the
        installed hook with it, so they prove the very command the agent starts."""

    def read_answer(self, status: int, stdout: str, stderr: str) -> Any:
        """The ``Decision`` an answer in the agent's contract says: the inverse of ``Agent.answer``, so a proof
        of the installed hook reads what the agent would do."""

    def config_path(self, scope: str, home: Any = None, project_dir: Any = None) -> Path:
        """The settings file (or plugin file) dp's entries go into for ``scope``: where install writes, and
        uninstall and doctor look."""

    def filter_support(self) -> dict:
        """Whether entries can start the hook only for the calls rules name (``filtered``, ``version``,
        ``reason``): Claude Code's ``if`` filters; agents whose matchers select tools have none."""

    def hook_entries(self, hook_command: str, rules: Any, extra_words: Any = (), filtered: bool = False) -> dict:
        """Event → hook groups running pave-check that dp wants in the agent's settings (an event absent from
        the result is left as it is)."""

    def hook_starts(self, hook_command: str, rules: Any, extra_words: Any = (), filtered: bool = False) -> Any:
        """Which calls start pave-check under those entries, in words (``dp doctor``); None when unsaid."""

    def capture_entries(self, capture_command: str) -> dict:
        """Event → hook groups running dp-capture after tool calls."""

    def bench_installs(self) -> dict:
        """The peer bench's rows for the agent's default install (bench/run_peer_bench.py): key → (label,
        how a call starts dp: ``door``, ``filters`` or ``every``, how many dp processes follow a call)."""


@runtime_checkable
class Install(Protocol):
    """``install.py``: an agent whose extension point is a file dp puts in place, code the agent runs
    (OpenCode's plugins), not hook entries in its settings; ``dp.install.agent_plugin`` records the install
    for ``dp uninstall`` and ``dp doctor``. ``path`` is ``Agent.hooks().config_path(scope)``."""

    def install(self, path: Path, scope: str, pave_command: str, capture_command: str | None) -> dict:
        """Put the file in place (the report: ``status``, ``created``: the directories made)."""

    def files(self, path: Path, scope: str, pave_command: str, capture_command: str | None) -> dict:
        """The files ``install`` would write: path → content."""

    def state(self, path: Path) -> str:
        """``current`` (the file this dp ships), ``outdated`` (another dp's), ``missing`` or ``not dp's``."""

    def uninstall(self, path: Path, details: dict) -> dict:
        """Take the file out again (``details``: the install's record); the report."""


@runtime_checkable
class Doctor(Protocol):
    """``doctor.py``: the agent's own ``dp doctor`` lines, instead of the generic check of its entries
    (``dp/doctor/agents.py``) that an agent without one gets."""

    def check(self, db_path: Path, cwd: Path, rules: list) -> list:
        """The ``dp.doctor.findings.Finding`` lines for this machine and ``cwd``."""


@runtime_checkable
class Live(Protocol):
    """``live.py``: ``dp doctor --live --agent NAME``, the agent's real binary against a fake model in a
    scratch HOME (a ``dp.live.probe.Probe`` subclass says what is the agent's own)."""

    def run(self, db_path: Path, rules: list, agent: Any) -> dict:
        """The probe's report: ``probes``, each with whether the hook ``fired``."""


@runtime_checkable
class Sessions(Protocol):
    """``sessions.py``: the agent's saved sessions read into the store by ``dp ingest`` (its option is
    the adapter's ``session_option``)."""

    DEFAULT_DIR: Path
    WHERE: str

    def ingest(self, conn: Any, directory: Path, progress: Any = None) -> Any:
        """Every session file under ``directory`` recorded (once) into the store; the totals."""


@runtime_checkable
class Sync(Protocol):
    """``sync.py``: what must follow every rule change besides the hook entries (Claude Code's mod
    snapshot and plugin), run by ``dp.refresh.after_rule_change``."""

    def after_rule_change(self, db_path: Path) -> list:
        """One report per file changed or failed (``settings``, ``status``)."""


@runtime_checkable
class Plugin(Protocol):
    """``plugin.py``: the agent's own plugin bundling dp's hooks (Claude Code's, ``dp init --plugin``,
    ``dp pave --plugin``): its files in a marketplace directory, installed with the agent's own commands."""

    MODS_FROM: str  # the first release of the agent that loads the plugin's mod, as dp init prints it

    def check_scope(self, scope: str | None) -> str:
        """``scope`` (the default when None), or a ``DpError`` for one the plugin has no place in."""

    def market_dir(self, scope: str, db_path: Path, cwd: Path) -> Path:
        """Where the plugin's files go for ``scope``."""

    def files(self, scope: str, db_path: Path, permission: str = "none", mode: str = "rewrite",
              capture: bool = True) -> dict:
        """The plugin's files: path relative to ``market_dir`` → content."""

    def client_steps(self, scope: str, directory: Path) -> list:
        """The agent's commands (argument lists) that register and install the plugin at ``directory``."""

    def register_committed(self, cwd: Path, db_path: Path, dry_run: bool = False) -> dict | None:
        """The repository's committed plugin registered for this person once trusted (None: nothing to do)."""

    def install(self, scope: str | None, db_path: Path, cwd: Path, permission: str = "none",
                mode: str = "rewrite", capture: bool = True) -> dict:
        """The plugin written and installed in ``scope``; the report."""

    def uninstall(self, path: Path, entry: Any) -> dict:
        """The plugin recorded as ``entry`` (at ``path``) taken out again; the report."""

    def refuse_settings_hooks(self, db_path: Path, scope: str, agent: Any = None) -> None:
        """A ``DpError`` when settings hooks would run beside the plugin's in ``scope``."""

    def committed_plugin(self, cwd: Path) -> Path | None:
        """The plugin a repository commits, which ``dp trust`` pins by its files."""


@runtime_checkable
class Instructions(Protocol):
    """``instructions.py``: the import line of the agent's instructions file (``Agent.instructions_file``)
    that brings AGENTS.md in (Claude Code's ``@AGENTS.md`` in CLAUDE.md, ``dp pave --claude-md``)."""

    def imports_agents_md(self, path: Path) -> bool:
        """Whether the file already imports AGENTS.md."""

    def add_import(self, path: Path) -> str:
        """The import line added (``created``, ``added`` or ``present``)."""

    def remove_import(self, path: Path, created_file: bool = False) -> str:
        """The import line taken out again (the file too, when dp created it and nothing else is left)."""


@runtime_checkable
class McpConfig(Protocol):
    """``mcp_config.py``: where the agent registers MCP servers (``dp pave --mcp``)."""

    SERVER_NAME: str
    SERVERS_KEY: str
    MCP_SCOPES: tuple

    def config_path(self, scope: str, home: Path | None = None, project_dir: Path | None = None) -> Path:
        """The file holding the agent's MCP servers for ``scope`` (one of ``MCP_SCOPES``)."""

    def server_entry(self, command: str, args: list) -> dict:
        """dp's server as the agent's file holds it."""

    def dp_entry(self, config: dict) -> Any:
        """dp's server in the file's ``config``, or None."""

    def entry_argv(self, entry: Any) -> list | None:
        """The command line an entry runs, or None when it is not one."""


# The roles that build on the packages which ask for the others (capture, install, doctor) and on dp/live (the live
# probe's machinery, which asks dp/agents for the settings and programs it copies): an agent's folder
# is two layers (ARCHITECTURE.md). These modules, and the helpers that need a package above ``dp/agents/``,
# sit above everything but the command line, which looks them up; the wire and the other roles (and their
# helpers) are part of ``dp/agents/`` itself, which every package may ask (``tests/test_package_layers.py``).
UPPER = ("doctor", "sessions", "sync", "plugin", "live")

# The roles whose module provides its Protocol through one instance (of a base class in ``dp/agents/`` that
# gives the defaults every agent shares) rather than as module functions: role → the instance's name.
INSTANCES = {"hooks": "HOOKS"}

# Role name (its module's name in an agent's folder) → its Protocol.
CATALOGUE = {
    "wire": Wire,
    "hooks": Hooks,
    "install": Install,
    "doctor": Doctor,
    "live": Live,
    "sessions": Sessions,
    "sync": Sync,
    "plugin": Plugin,
    "instructions": Instructions,
    "mcp_config": McpConfig,
}
