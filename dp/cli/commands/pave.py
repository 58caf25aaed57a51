"""``dp pave``: teach the agent the rules (--agents-md) and wire the hook (--hook/--unhook)."""

from __future__ import annotations

from pathlib import Path

import typer

from dp.agents import listing
from dp.cli.common import note, print_json, status
from dp.cli.options import Shared, shared
from dp.cli.rehearsal import DRY_RUN_OPTION, rehearsed

HELP = """Put the rules to work: as Markdown for the agent, or as the Claude Code hook.

\b
--agents-md prints the rules as instructions for AGENTS.md / CLAUDE.md;
with --output FILE they go into FILE between <!-- dp:begin --> and
<!-- dp:end --> (replaced in place on every run, the rest of FILE untouched).
\b
--hook installs the PreToolUse hook that runs pave-check before every tool
call; --unhook removes it. Scopes: user (~/.claude/settings.json, default),
project (.claude/settings.json), local (.claude/settings.local.json), or
--settings PATH. The previous file is kept in ~/.dp/backups/ (last 5 versions).
\b
--mcp registers `dp mcp` (dp's project tools as MCP tools) where Claude Code
looks for MCP servers: user scope (~/.claude.json, default) or project scope
(.mcp.json); --unmcp removes it.
\b
--plugin writes dp as a Claude Code plugin (its hooks, dp mcp, and the mod
that runs a hallucinated tool name as the real tool) with a local
marketplace, and installs it with `claude plugin` (user or project scope).
\b
Examples:
  dp pave --agents-md                              # print the Markdown
  dp pave --agents-md --output AGENTS.md           # write/refresh dp's block in AGENTS.md
  dp pave --agents-md --tasks --output CLAUDE.md   # plus the project's tasks
  dp pave --agents-md --agent gemini -o GEMINI.md  # in Gemini CLI's tool names
  dp pave --agents-md --agent copilot -o .github/copilot-instructions.md
  dp pave --claude-md                              # ./CLAUDE.md gets an @AGENTS.md import line
  dp pave --hook                                   # install for every project (user scope)
  dp pave --hook --scope project --permission ask  # this project; ask before rewritten calls
  dp pave --unhook --scope project
  dp pave --mcp --scope project                    # .mcp.json: the project's tools for Claude Code
  dp pave --plugin                                 # dp as a Claude Code plugin, for you (user scope)
  dp pave --plugin --scope project                 # the team's plugin, committed in .claude/
  dp pave --plugin --dry-run                       # each file as a diff, the claude commands; change nothing
"""

# Shared with ``dp init``, which installs the hook too.
SCOPE_OPTION = typer.Option(
    None, "--scope", metavar="SCOPE", help="Settings to change: user (default), project or local."
)
SETTINGS_OPTION = typer.Option(None, "--settings", metavar="PATH", help="Use this settings file instead of a scope.")
PERMISSION_OPTION = typer.Option(
    "none", "--permission", metavar="none|ask|allow", help="Hook option: permission decision on rewrites."
)
YES_OPTION = typer.Option(False, "--yes", help="Confirm --permission allow (it widens what the agent may do).")
MODE_OPTION = typer.Option(
    "rewrite", "--mode", metavar="rewrite|advise", help="Hook option: rewrite, or deny with advice."
)
AGENT_OPTION = typer.Option(
    None, "--agent", metavar="NAME", help=f"The agent to install for, or whose tool names --agents-md uses: {listing()}."
)


@shared()
@rehearsed
def pave(
    agents_md: bool = typer.Option(False, "--agents-md", help="Print the rules as agent instructions (Markdown)."),
    output: Path | None = typer.Option(
        None, "--output", "-o", metavar="FILE", help="With --agents-md: write them into FILE between dp's markers."
    ),
    tasks: bool = typer.Option(False, "--tasks", help="With --agents-md: add a '# Project Tasks' section."),
    include_personal: bool = typer.Option(
        False, "--include-personal",
        help="With --agents-md --output: write your own rules too (your store's, .dp/rules.local.toml's).",
    ),
    import_line: bool = typer.Option(False, "--claude-md", help="Add an @AGENTS.md import line to ./CLAUDE.md."),
    hook: bool = typer.Option(False, "--hook", help="Install the PreToolUse hook in Claude Code's settings."),
    unhook: bool = typer.Option(False, "--unhook", help="Remove dp's hook entries (nothing else)."),
    mcp: bool = typer.Option(False, "--mcp", help="Register the dp MCP server (dp mcp) with Claude Code."),
    unmcp: bool = typer.Option(False, "--unmcp", help="Remove dp's MCP server registration (nothing else)."),
    plugin: bool = typer.Option(False, "--plugin", help="Install dp as a Claude Code plugin (hooks, MCP, the tool-name mod)."),
    scope: str | None = SCOPE_OPTION,
    settings: Path | None = SETTINGS_OPTION,
    permission: str = PERMISSION_OPTION,
    mode: str = MODE_OPTION,
    yes: bool = YES_OPTION,
    agent: str | None = AGENT_OPTION,
    dry_run: bool = DRY_RUN_OPTION,
    *, opts: Shared,
) -> None:
    chosen = _one_mode(
        {"--agents-md": agents_md, "--claude-md": import_line, "--hook": hook, "--unhook": unhook, "--mcp": mcp,
         "--unmcp": unmcp, "--plugin": plugin}
    )
    hook_options = _hook_options(scope, settings, permission, mode, agent)
    if chosen == "--agents-md":  # the instructions in that agent's tool names (GEMINI.md …)
        hook_options = [name for name in hook_options if name != "--agent"]
    _check_options(chosen, output is not None or tasks or include_personal, hook_options)
    if import_line:
        _import_line(opts)
    elif agents_md:
        _agents_md(opts, output, tasks, agent, include_personal)
    elif mcp or unmcp:
        _mcp_change(opts, mcp, scope)
    elif plugin:
        check_permission(permission, yes)
        _plugin_change(opts, scope, permission, mode)
    else:
        if hook:
            from dp.install.hook import agent_named, check_agent_permission

            check_agent_permission(agent_named(agent), permission)  # before the warning about allow
            check_permission(permission, yes)
        _hook_change(opts, hook, scope, settings, permission, mode, agent)


def _one_mode(modes: dict[str, bool]) -> str:
    """The one mode option given, refused when there are none or several."""
    from dp.errors import DpError

    chosen = [name for name, on in modes.items() if on]
    if len(chosen) != 1:
        raise DpError(
            "choose one of --agents-md, --claude-md, --hook, --unhook, --mcp, --unmcp or --plugin (see 'dp pave --help')"
        )
    return chosen[0]


def _hook_options(scope, settings, permission: str, mode: str, agent=None) -> list[str]:
    """The hook options given a value other than their default, in --help order."""
    given = (("--scope", scope, None), ("--settings", settings, None), ("--permission", permission, "none"),
             ("--mode", mode, "rewrite"), ("--agent", agent, None))
    return [name for name, value, default in given if value != default]


def _check_options(chosen: str, agents_md_options: bool, hook_options: list[str]) -> None:
    """Refuse options that do not go with the chosen mode, naming the mode they go with."""
    from dp.errors import DpError

    if chosen != "--agents-md" and agents_md_options:
        raise DpError("--output, --tasks and --include-personal go with --agents-md")
    if chosen in ("--agents-md", "--claude-md") and hook_options:
        raise DpError(f"{hook_options[0]} goes with --hook or --unhook")
    not_mcp = set(hook_options) - {"--scope"}
    if chosen in ("--mcp", "--unmcp") and not_mcp:
        raise DpError(f"{not_mcp.pop()} goes with --hook; --mcp takes only --scope user|project")
    if chosen == "--plugin" and ("--settings" in hook_options or "--agent" in hook_options):
        raise DpError("--plugin is Claude Code's plugin and takes --scope user|project (not --settings or --agent)")
    if chosen == "--unhook" and ("--permission" in hook_options or "--mode" in hook_options):
        raise DpError("--permission and --mode are options of --hook")


def _agents_md(opts: Shared, output: Path | None, tasks: bool, agent_name: str | None = None,
               include_personal: bool = False) -> None:
    from dp.install import agents_md
    from dp.install.hook import agent_named
    from dp.layers.view import in_effect
    from dp.paving.report import markdown as paving_markdown

    rules, project = in_effect(opts.store, str(Path.cwd()))
    for text in project.notices() if project is not None else ():
        note(f"dp: {text}")
    in_effect_count = len(rules)
    rules, left_out = _taught(rules, output is not None and not include_personal)
    if agent_name is not None:
        rules = agent_named(agent_name).spelled_rules(rules)
    from dp.layers.trusting import repository_trusted

    extra = paving_markdown(str(opts.store.parent), str(Path.cwd()), repository_trusted(opts.store, Path.cwd()))
    if tasks:
        from dp.runners import tasks_markdown

        extra = "\n".join(part for part in (extra, tasks_markdown(Path.cwd())) if part)
    result = agents_md.generate(rules, extra, output, store=opts.store)
    result["left_out"] = left_out
    if not in_effect_count and not opts.json:
        note(agents_md.EMPTY_NOTE)
    if opts.json:
        print_json(result)
        return
    for line in _left_out_lines(left_out):
        note(line)
    if output is not None:
        if rules or result["action"] != "unchanged":
            count = len(rules)
            status(f"{output}: {_ACTION_TEXT[result['action']]} ({count} rule{'s' if count != 1 else ''})")
        _import_hint(Path(output))
    else:
        typer.echo(result.get("markdown", ""), nl=False)


def _taught(rules: list, committed_only: bool) -> tuple[list, list]:
    """The rules the Markdown lists, and ``{"rule", "source", "why"}`` for each left out: a rule that cannot
    act here (its program is not on PATH: the hook leaves the command as typed, ``dp.rules.programs``) and,
    for a file (``committed_only``), a rule of the person's own (``dp.layers.view.committed``)."""
    from dp.layers.view import committed
    from dp.rules.programs import acting_here, missing_programs
    from dp.rules.wording import rule_line

    acting = acting_here(rules, str(Path.cwd()))
    left_out = [{"rule": rule_line(rule), "source": rule.source,
                 "why": f"cannot act here: {', '.join(missing_programs(rule))} not on PATH"}
                for rule in rules if rule not in acting]
    if committed_only:
        acting, personal = committed(acting)
        left_out += [{"rule": rule_line(rule), "source": rule.source, "why": "personal"} for rule in personal]
    return acting, left_out


def _left_out_lines(left_out: list[dict]) -> list[str]:
    """One line for the personal rules left out, one per rule that cannot act here."""
    personal = [item for item in left_out if item["why"] == "personal"]
    lines = [f"dp: not taught, {item['why']}: {item['rule']}" for item in left_out if item["why"] != "personal"]
    if personal:
        count = len(personal)
        lines.append(f"dp: {count} personal rule{'s' if count != 1 else ''} (your store, .dp/rules.local.toml) "
                     "left out of a file a team may commit; --include-personal writes them too")
    return lines


def _import_line(opts: Shared) -> None:
    """``dp pave --claude-md``: the default agent's instructions file imports AGENTS.md (its "instructions" part)."""
    from dp.agents import get
    from dp.store import Store, installs

    instructions = get().role("instructions")
    IMPORT_LINE = instructions.IMPORT_LINE
    path = Path("CLAUDE.md").absolute()
    action = instructions.add_import(path)
    if action != "present":
        with Store.open(opts.store) as store:
            installs.record(store, path, installs.IMPORT_LINE, "project", created_file=action == "created",
                            details={"line": IMPORT_LINE})
    if opts.json:
        print_json({"output": str(path), "action": action, "line": IMPORT_LINE})
    else:
        done = {"created": "created with", "added": "added", "present": "already has"}[action]
        status(f"CLAUDE.md: {done} the {IMPORT_LINE} import line (Claude Code reads CLAUDE.md; the line brings AGENTS.md)")


def _import_hint(output: Path) -> None:
    """After writing AGENTS.md: say how Claude Code gets to read it, unless CLAUDE.md already imports it."""
    from dp.agents import get

    instructions = output.parent / "CLAUDE.md"
    if output.name == "AGENTS.md" and not get().role("instructions").imports_agents_md(instructions):
        note("Claude Code reads CLAUDE.md: add an @AGENTS.md import line with `dp pave --claude-md`, "
             "or put dp's block there with `dp pave --agents-md --output CLAUDE.md`")


_ACTION_TEXT = {
    "created": "created with dp's block",
    "appended": "dp's block appended",
    "replaced": "dp's block replaced",
    "unchanged": "dp's block already up to date",
}


def _hook_change(
    opts: Shared,
    install: bool,
    scope: str | None,
    settings: Path | None,
    permission: str,
    mode: str,
    agent_name: str | None = None,
) -> None:
    from dp.cli.common import plugin_of
    from dp.install import hook as pave_hook

    agent = pave_hook.agent_named(agent_name)
    if agent.plugin:  # dp is a plugin file there (dp/install/agent_plugin.py), not settings entries
        from dp.install import agent_plugin

        result = agent_plugin.change(install, scope, settings, opts.store, permission, mode, agent)
    else:
        result = pave_hook.change(install, scope, settings, opts.store, permission, mode, agent,
                                  plugin_of=plugin_of)
    _print_result(opts, result, describe_hook_result)


def _plugin_change(opts: Shared, scope: str | None, permission: str, mode: str) -> None:
    from dp.agents import get

    _print_result(opts, get().role("plugin").install(scope, opts.store, Path.cwd(), permission, mode),
                  describe_plugin_result)


def _print_result(opts: Shared, result: dict, describe) -> None:
    """An install's report: the JSON itself with --json, else ``describe``'s lines for people."""
    if opts.json:
        print_json(result)
    else:
        for line in describe(result):
            status(line)


def describe_plugin_result(result: dict) -> list[str]:
    """The plugin install report as lines for people; ``dp init --plugin`` prints them too."""
    lines = [f"{result['plugin']} ({result['scope']} scope), in the marketplace {result['marketplace']}"
             + ("" if result["changed"] else " (unchanged)")]
    if result.get("project_settings"):
        lines.append(f"  {result['project_settings']} declares and enables it (commit both)")
    if result.get("removed_hooks"):
        lines.append(f"  dp's entries left {result['removed_hooks']['settings']}: the plugin carries them now")
    client = result["client"]
    if not client["ran"]:
        lines.append("  claude is not on PATH; install the plugin with:")
        lines += [f"    {command}" for command in client["commands"]]
    elif client["ok"]:
        lines.append("  installed in Claude Code with:")
        lines += [f"    {command}" for command in client["commands"]]
    else:
        failed = next(r for r in client["results"] if not r["ok"])
        lines.append(f"  warning: `{failed['command']}` failed: {failed['output']}")
    lines.append(f"  tool-name aliases for the mod: {result['aliases']} (snapshot {result['snapshot']})")
    if result["scope"] == "project":
        lines.append("  teammates with dp enable it by running dp init in their clone (or the two claude plugin "
                     "commands in .claude/dp-plugin/dp/README.md)")
    lines.append("  Claude Code sessions already running pick this up after a restart.")
    return lines


def _mcp_change(opts: Shared, install: bool, scope: str | None) -> None:
    from dp.install import mcp as pave_mcp

    result = pave_mcp.install(scope, opts.store) if install else pave_mcp.uninstall(scope, opts.store)
    _print_result(opts, result, describe_mcp_result)


def describe_mcp_result(result: dict) -> list[str]:
    """The MCP registration report as lines for people; ``dp init --mcp`` prints them too."""
    where = f"{result['config']} ({result['scope']} scope)"
    lines = [{
        "configured": f"Registered the dp MCP server in {where}.",
        "updated": f"Updated the dp MCP server in {where}.",
        "already_configured": f"The dp MCP server is already registered in {where}; nothing changed.",
        "removed": f"Removed the dp MCP server from {where}.",
        "not_installed": f"No dp MCP server in {where}; nothing changed.",
    }[result["status"]]]
    if "command" in result:
        lines.append(f"  command: {' '.join([result['command'], *result['args']])}")
    if result.get("backup"):
        lines.append(f"  previous file kept as {result['backup']}")
    if result["status"] in ("configured", "updated", "removed"):
        lines.append("  Claude Code sessions already running pick this up after a restart (or in /mcp).")
    return lines


ALLOW_WIDENS = (
    "--permission allow approves every call dp rewrites, skipping your permission rules: in -p mode a "
    "rewritten Bash call runs even without --allowedTools Bash, and interactively it runs without the "
    "prompt your rules would show"
)
ASK_REFUSES = (
    "--permission ask: non-interactive runs (claude -p, CI, dp recipe agent steps) cannot ask, so they "
    "refuse every rewritten call; only interactive sessions get the question"
)


def check_permission(permission: str, yes: bool) -> None:
    """``allow`` needs ``--yes`` and says what it widens; ``ask`` warns about non-interactive runs."""
    from dp.cli.common import warning
    from dp.errors import DpError

    if permission == "allow" and not yes:
        raise DpError(f"{ALLOW_WIDENS}; add --yes if that is what you want")
    if permission == "allow":
        warning(ALLOW_WIDENS)
    elif permission == "ask":
        warning(ASK_REFUSES)


def describe_hook_result(result: dict) -> list[str]:
    """The hook report as lines for people; ``dp init`` prints them too."""
    where = f"{result['settings']} ({result['scope']} scope)"
    status = result["status"]
    lines = {
        "configured": [f"Installed the dp {result['hook']} hook in {where}."],
        "updated": [f"Updated the dp {result['hook']} hook in {where}."],
        "already_configured": [f"The dp {result['hook']} hook is already installed in {where}; nothing changed."],
        "removed": [f"Removed {result.get('removed')} dp hook {_entries(result.get('removed'))} from {where}."],
        "not_installed": [f"No dp hook in {where}; nothing changed."],
    }[status]
    if "command" in result:
        lines.append(f"  command: {result['command']} (timeout {result['timeout']} s)")
        others = [event for event in result.get("events", ("SessionStart", "PostToolBatch")) if event != result["hook"]]
        if others:
            lines.append(f"  also on {' and '.join(others)}: the corrections the model reads")
    if result.get("filters") and "agent" not in result:  # only Claude Code's hooks filter by command (if filters)
        lines.append(f"  {result['filters']['reason']}")
        if result["filters"].get("starts"):
            lines.append(f"  {result['filters']['starts']}")
    if result.get("deleted"):
        lines.append("  The file held nothing else, so it was deleted.")
    capture = result.get("capture")
    if capture:
        verb = {"configured": "installed", "updated": "updated", "already_configured": "already installed"}
        lines.append(f"  capture: {verb[capture['status']]} for {' and '.join(capture['events'])}"
                     f"{_async_note(capture)}: {capture['command']}")
    if result.get("backup"):
        lines.append(f"  previous file kept as {result['backup']}")
    if result.get("warning"):
        lines.append(f"  warning: {result['warning']}")
    if status in ("configured", "updated", "removed") or (capture and capture["status"] != "already_configured"):
        # Claude Code (and Gemini CLI) snapshot hooks when a session starts.
        lines.append(f"  {result.get('agent', 'Claude Code')} sessions already running pick this up after a restart"
                     + (" (or in /hooks)." if result.get("agent", "Claude Code") == "Claude Code" else "."))
    if status in ("configured", "updated", "already_configured"):
        lines += [f"  {note}" for note in _adapter(result).hooks().install_notes]
    return lines


def _adapter(result: dict):
    """The adapter a hook report is about (its ``agent`` is the display name; Claude Code's names none)."""
    from dp.agents import all_agents, get

    return next((agent for agent in all_agents() if agent.display == result.get("agent")), get())



def _entries(count) -> str:
    return "entry" if count == 1 else "entries"


def register(app: typer.Typer) -> None:
    short = "Agent instructions (--agents-md) and the Claude Code hook (--hook)."
    app.command("pave", help=HELP, short_help=short)(pave)


def _async_note(capture: dict) -> str:
    """`` (async)`` when every capture event runs asynchronously, else which ones do (Claude Code: the
    failure event runs in line, so its learned answer reaches the model)."""
    if not capture["async"]:
        return ""
    if len(capture["async"]) == len(capture["events"]):
        return " (async)"
    return f" ({' and '.join(capture['async'])} async)"
