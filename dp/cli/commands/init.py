"""``dp init``: the store, the hook, and proof that they work — in one command."""

from __future__ import annotations

from pathlib import Path

import typer

from dp.agents import DEFAULT, NAME_YOUR_AGENT
from dp.cli.commands.pave import AGENT_OPTION, MODE_OPTION, PERMISSION_OPTION, SCOPE_OPTION, SETTINGS_OPTION, YES_OPTION
from dp.cli.common import print_json
from dp.cli.options import Shared, shared
from dp.cli.rehearsal import rehearsed

HELP = """Set dp up: create the alias store, install the Claude Code hook, and show it working.

Where the claude on PATH loads plugin mods (2.1.286+), dp goes in as a Claude
Code plugin (user scope): its mod decides in the client, so an ordinary call
starts no dp process (--no-plugin keeps the settings hooks). Otherwise the
hook goes into your user settings (~/.claude/settings.json) unless you
pick --scope project|local or --settings PATH. Next to it go the capture
hooks (dp-capture, PostToolUse and PostToolUseFailure, async) that record
failed calls for dp paths / dp suggest; --no-capture leaves them out.
The demonstration runs the installed pave-check against a throwaway store
with two sample rules, so your own store stays empty until you add rules.
Safe to run again: nothing is duplicated. Without Claude Code on the machine
(no claude on PATH, no ~/.claude) it writes nothing and says so, unless you
name the agent (--agent NAME); --dry-run then shows what --agent claude would do. In a clone whose committed team plugin
(.claude/dp-plugin) you trusted (dp trust) and have not registered, it registers it for you; an untrusted
repository's plugin is never registered.

\b
Examples:
  dp init                        # user scope: every project
  dp init --scope project        # only this project (.claude/settings.json)
  dp init --mcp                  # also register the dp MCP server (dp mcp)
  dp init --no-capture           # only the PreToolUse hook
  dp init --plugin               # as a Claude Code plugin (hooks, MCP, tool-name mod)
  dp init --plugin --scope project   # the team's plugin, committed in .claude/
  dp init --dry-run              # what it would write (as diffs) and run; changes nothing
  dp init --json
"""


@shared()
@rehearsed(own_plan=True)
def init(
    scope: str | None = SCOPE_OPTION,
    settings: Path | None = SETTINGS_OPTION,
    permission: str = PERMISSION_OPTION,
    mode: str = MODE_OPTION,
    mcp: bool = typer.Option(
        False, "--mcp", help="Also register the dp MCP server with Claude Code (user, or project with --scope project)."
    ),
    yes: bool = YES_OPTION,
    no_capture: bool = typer.Option(
        False, "--no-capture", help="Do not install the dp-capture hooks that record failed tool calls."
    ),
    agent: str | None = AGENT_OPTION,
    plugin: bool | None = typer.Option(
        None, "--plugin/--no-plugin", show_default=False,
        help="Install dp as a Claude Code plugin (user, or project with --scope project); --no-plugin writes the "
             "settings hooks. Default: the plugin where the claude on PATH loads plugin mods (user scope).",
    ),
    dry_run: bool = typer.Option(
        False, "--dry-run", help="Print what would be written (each file, as a diff) and run; change nothing."
    ),
    *, opts: Shared,
) -> None:
    from dp.cli.common import plugin_of
    from dp.errors import DpError
    from dp.install.hook import agent_named
    from dp.install.init import init as set_up

    chosen = agent_named(agent)  # a bad name fails before anything is created
    _check_options(chosen, mcp=mcp, permission=permission, yes=yes, plugin=plugin)
    absent = agent is None and settings is None and scope in (None, "user") and not _default_agent_here()
    if absent and not dry_run:
        raise DpError(no_default_agent())
    report = set_up(opts.store, scope, settings, permission, mode, mcp, capture=not no_capture, agent=chosen,
                    plugin=plugin, dry_run=dry_run, plugin_of=plugin_of)
    if absent:  # the plan is what naming the agent would do: dp init itself writes nothing here
        report["note"] = f"{NO_DEFAULT_AGENT}: dp init would write nothing; with --agent {chosen.name} it would do this"
    if dry_run and not opts.json:
        _print_plan(report)
        return
    if opts.json:
        print_json(report)
        if dry_run:
            return
    elif opts.quiet:
        _print_warnings(report)
    else:
        _print_done(report, chosen)
    if not report["demo"]["ok"]:
        raise DpError("the installed hook failed the demonstration above; run 'dp doctor' to see why")


def _check_options(chosen, *, mcp: bool, permission: str, yes: bool, plugin: bool | None) -> None:
    """The options that cannot go together for this agent, refused before anything is written."""
    from dp.cli.commands.pave import check_permission
    from dp.errors import DpError
    from dp.install.hook import check_agent_permission

    if mcp and not chosen.has_role("mcp_config"):
        raise DpError(f"--mcp registers dp's MCP server with Claude Code, not {chosen.display}")
    check_agent_permission(chosen, permission)
    check_permission(permission, yes)
    if plugin and (mcp or not chosen.has_role("plugin")):
        raise DpError("--plugin is Claude Code's plugin and brings dp mcp with it; leave out --mcp and --agent")


def _print_done(report: dict, chosen) -> None:
    """What dp init did, for people: the plugin, or the hook entries with the MCP server and a team's plugin."""
    from dp.cli.commands.pave import describe_hook_result, describe_plugin_result

    if "plugin" in report:
        lines = describe_plugin_result(report["plugin"])
        _print_report(report, lines[:1] + _chosen_lines(report) + lines[1:], chosen, label="Plugin:", plugin=True,
                      client=_client(report))
        return
    _print_report(report, describe_hook_result(report["hook"]), chosen, client=_client(report))
    if "mcp" in report:
        _print_mcp(report["mcp"])
    if "team_plugin" in report:
        _print_team_plugin(report["team_plugin"])


def _chosen_lines(report: dict) -> list[str]:
    """Why a plain dp init installed the plugin (none when --plugin asked for it)."""
    if not report.get("chosen"):
        return []
    return [f"  Claude Code {report['chosen']} loads plugin mods, so dp installed itself as a plugin: its mod decides "
            "in the client, and an ordinary call starts no dp process (dp init --no-plugin writes settings hooks)"]


def _print_warnings(report: dict) -> None:
    """--quiet: of the report, only its warnings (on stderr, as every warning)."""
    from dp.cli.commands.pave import describe_hook_result, describe_mcp_result, describe_plugin_result
    from dp.cli.common import warning

    lines = describe_plugin_result(report["plugin"]) if "plugin" in report else describe_hook_result(report["hook"])
    lines += describe_mcp_result(report["mcp"]) if "mcp" in report else []
    for line in lines:
        if line.strip().startswith("warning: "):
            warning(line.strip().removeprefix("warning: "))


def _print_paving(paving: dict) -> None:
    if paving["enabled"]:
        typer.echo("Paving: on — the agent's npm/yarn/pnpm/bun commands, Python tools and task commands run with each "
                   "project's own tools (dp paving shows how; dp paving off to stop)")
    else:
        typer.echo("Paving: off (you switched it off; dp paving on turns it back on)")


def _print_report(report: dict, hook_lines: list[str], agent=None, label: str = "Hook:", plugin: bool = False,
                  client: str = "Claude Code") -> None:
    store, shown, paving = report["store"], report["demo"], report["paving"]
    rules = store["rules"]
    typer.echo(
        f"Store: {store['path']} ({store['status']}, schema {store['schema_version']}, "
        f"{rules} rule{'s' if rules != 1 else ''})"
    )
    typer.echo(f"{label:<6} {hook_lines[0]}")
    for line in hook_lines[1:]:
        typer.echo(f"     {line}")
    if report.get("lacks"):
        typer.echo(f"Note:  {report['lacks']}")
    _print_paving(paving)
    typer.echo("")
    count = {1: "one sample rule", 2: "two sample rules"}[len(shown["rules"])]
    typer.echo(f"Live demo: the installed hook, with a throwaway store holding {count}")
    typer.echo(f"(rules: {', '.join(shown['rules'])}):")
    if "correction" in shown:
        tool_name = _tool_name_lines(shown, client, report.get("mods_since") if plugin else None,
                                     bool(report.get("lacks")))
    elif "block" not in shown:  # no tool of the agent's that an alias could name (Codex CLI)
        tool_name = []
    elif "session_start" in shown:
        tool_name = _rejected_lines(shown, agent)
    else:
        tool_name = _block_lines(shown["block"])
    for line in [*_session_lines(shown.get("session_start")), *tool_name, *_rewrite_lines(shown["rewrite"])]:
        typer.echo(f"  {line}")
    if shown["ok"]:
        typer.echo("")
        typer.echo("Next:")
        first = "dp alias read_file Read" if shown["rewrite"].get("missing") else "dp alias --cmd grep --replace rg"
        # Your own rules go into an instructions file only when asked (--include-personal): the file may be
        # committed, and without the flag it would get the project's rules alone, not the ones just added.
        instructions = "--output AGENTS.md" if agent is None or agent.name == DEFAULT else \
            f"--agent {agent.name} --output {agent.instructions_file}"
        steps = [(first, "add your own rules (see dp alias --help)"),
                 (f"dp pave --agents-md {instructions} --include-personal", "tell the agent about them up front"),
                 ("dp doctor", "check the whole setup")]
        width = max(len(command) for command, _ in steps)
        for command, why in steps:
            typer.echo(f"  {command:<{width}}    {why}")


def _client(report: dict) -> str:
    """The client the demo speaks of: the Claude Code dp found, with its version, when it found one."""
    version = ((report.get("hook") or {}).get("filters") or {}).get("version")
    return f"Claude Code {version}" if version else "Claude Code"


def _session_lines(scene: dict | None) -> list[str]:
    if scene is None:
        return []
    if not scene["ok"]:
        return [f"session starts: the model is NOT shown the corrections (exit {scene['exit_code']}) {scene['error']}".rstrip()]
    if not scene["lines"]:  # the sample rewrite's program is missing: taught only where it acts
        return ["session starts: nothing to tell the model (a rule whose program is missing here is not taught)"]
    return ["session starts: the model is shown the corrections", *(f"  {line}" for line in scene["lines"])]


def _tool_name_lines(shown: dict, client: str, mods_since: str | None = None, too_old: bool = False) -> list[str]:
    """The hallucinated tool name in Claude Code: the client rejects it before any hook and the
    correction follows it; with the plugin (``mods_since``: the release its mod needs), the mod runs
    it as the real tool where it loads."""
    correction, block = shown["correction"], shown["block"]
    told = (f"the model is told: {correction['additional_context']}" if correction["ok"] else
            f"NO correction follows (exit {correction['exit_code']}) {correction['error']}".rstrip())
    if mods_since and not too_old:
        from dp.install.demo import BLOCK_RULE

        lines = [f"agent calls tool {correction['tool_name']}: {client} has no such tool",
                 f"  -> in Claude Code {mods_since}+ the plugin's mod runs it as {BLOCK_RULE.to_name} (dp doctor says "
                 "if it loaded)",
                 f"  -> older clients reject it before any hook; right after, {told}"]
    else:
        lines = [f"agent calls tool {correction['tool_name']}: {client} has no such tool and rejects the call "
                 "itself, before any hook runs", f"  -> right after, {told}"]
    if not block["ok"]:  # a tool a client does send (an MCP tool) must still be blocked
        lines.append(f"  the hook does NOT block it when a client sends it (exit {block['exit_code']}) "
                     f"{block['error'] or block['message']}".rstrip())
    return lines


def _rejected_lines(shown: dict, agent) -> list[str]:
    """An agent that rejects an unknown tool name before any hook: no block to show, the corrections
    above are what the model has (a block of a name the agent does send is shown only when it fails)."""
    block = shown["block"]
    lines = [f"agent calls tool {block['tool_name']}: {agent.display} has no such tool and rejects the call "
             "itself, before any hook runs; the model has the right name from session start"]
    if not block["ok"]:
        lines.append(f"  the hook does NOT block it when a client sends it (exit {block['exit_code']}) "
                     f"{block['error'] or block['message']}".rstrip())
    return lines


def _rewrite_lines(rewrite: dict) -> list[str]:
    lines = [f"agent runs {rewrite['tool_name']}: {rewrite['command']}"]
    if rewrite.get("missing"):
        missing = ", ".join(rewrite["missing"])
        return [*lines, f"  -> left as typed: {missing} is not installed here, and dp never rewrites to a missing "
                        "program",
                f"  -> once {missing} is installed, runs instead: {rewrite['once_installed']}"]
    if rewrite["rewritten"]:
        lines.append(f"  -> runs instead: {rewrite['rewritten']}")
    elif rewrite["advice"]:
        lines.append(f"  -> denied with advice: {_first_line(_corrected(rewrite['advice']))} (the model runs it itself)")
    else:
        lines.append(f"  -> NOT rewritten (exit {rewrite['exit_code']}) {rewrite['error']}".rstrip())
    if rewrite["additional_context"]:
        lines.append(f"  the agent is told: {rewrite['additional_context']}")
    return lines


def _corrected(advice: str) -> str:
    """The command a refusal tells the model to run (``dp.agents.base.corrected_call``), else the advice."""
    marker = "Run this instead:\n"
    return f"run `{advice.split(marker, 1)[1].splitlines()[0]}`" if marker in advice else advice


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


def _block_lines(block: dict) -> list[str]:
    """An agent whose hook sees the tool name: the block, as its adapter read the answer."""
    if block["ok"]:
        how = "exit 2" if block["exit_code"] == 2 else "decision deny"
        return [f"agent calls tool {block['tool_name']}", f"  -> blocked ({how}): {block['message']}"]
    return [f"agent calls tool {block['tool_name']}",
            f"  -> NOT blocked (exit {block['exit_code']}) {block['error'] or block['message']}".rstrip()]


def _print_mcp(result: dict) -> None:
    from dp.cli.commands.pave import describe_mcp_result

    lines = describe_mcp_result(result)
    typer.echo("")
    typer.echo(f"MCP:   {lines[0]}")
    for line in lines[1:]:
        typer.echo(f"     {line}")


NO_DEFAULT_AGENT = "no Claude Code on this machine (no claude on PATH, no ~/.claude)"


def no_default_agent() -> str:
    """The error of ``dp init`` where Claude Code is not: nothing written, and every agent dp can be set up for."""
    return (f"{NO_DEFAULT_AGENT}: nothing was written. Install Claude Code and run dp init again, or name "
            f"your agent: {NAME_YOUR_AGENT}")


def _default_agent_here() -> bool:
    """``dp init`` with no agent named writes Claude Code's user settings only where Claude Code is."""
    from dp.agents import get

    return get().is_present()


def _print_plan(plan: dict) -> None:
    """``dp init --dry-run``: what would be written and run; nothing was."""
    store = plan["store"]
    typer.echo("Dry run: nothing was written, created or run.")
    if plan.get("note"):
        typer.echo(f"Note:  {plan['note']}")
    typer.echo(f"Store: {store['path']} ({store['status']})")
    for change in plan["files"]:
        typer.echo(f"File:  {change['path']} ({change['status']})")
        for line in change["diff"].splitlines():
            typer.echo(f"       {line}")
    for action in plan["actions"]:
        typer.echo(f"Would: {action}")
    for command in plan["commands"]:
        typer.echo(f"Would run: {command}")
    if plan.get("warning"):
        typer.echo(f"Warning: {plan['warning']}")


def _print_team_plugin(team: dict) -> None:
    """The repository's committed plugin, registered for this person (or the commands that would)."""
    typer.echo("")
    if "ran" not in team:  # not trusted as it is: nothing ran, and no command to run is offered
        changed = " changed since you trusted it, so it" if team["state"] == "changed" else ""
        typer.echo(f"Team plugin: this repository commits {team['plugin']} ({team['marketplace']}); it{changed} is "
                   "not registered: Claude Code would run its files in every session here. Read them with "
                   "dp trust --show; after dp trust, dp init registers it.")
        return
    where = f"{team['plugin']} for you in {team['project']} (local scope: this clone, only you)"
    if not team["ran"]:
        typer.echo(f"Team plugin: this repository commits {team['plugin']}; no claude on PATH to register it. Run:")
    elif team["ok"]:
        typer.echo(f"Team plugin: registered {where}:")
    else:
        failed = next(result for result in team["results"] if not result["ok"])
        typer.echo(f"Team plugin: could NOT register {where}: `{failed['command']}` failed: {failed['output']}. Run:")
    for command in team["commands"]:
        typer.echo(f"     {command}")


def register(app: typer.Typer) -> None:
    app.command("init", help=HELP, short_help="Create the store, install the hook, show a live demo.")(init)
