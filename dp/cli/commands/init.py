"""``dp init``: the store, the hook, and proof that they work — in one command."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from dp.cli.commands.pave import AGENT_OPTION, MODE_OPTION, PERMISSION_OPTION, SCOPE_OPTION, SETTINGS_OPTION, YES_OPTION
from dp.cli.common import print_json
from dp.cli.options import Shared, shared

HELP = """Set dp up: create the alias store, install the Claude Code hook, and show it working.

The hook goes into your user settings (~/.claude/settings.json) unless you
pick --scope project|local or --settings PATH. Next to it go the capture
hooks (dp-capture, PostToolUse and PostToolUseFailure, async) that record
failed calls for dp paths / dp suggest; --no-capture leaves them out.
The demonstration runs the installed pave-check against a throwaway store
with two sample rules, so your own store stays empty until you add rules.
Safe to run again: nothing is duplicated.

\b
Examples:
  dp init                        # user scope: every project
  dp init --scope project        # only this project (.claude/settings.json)
  dp init --mcp                  # also register the dp MCP server (dp mcp)
  dp init --no-capture           # only the PreToolUse hook
  dp init --plugin               # as a Claude Code plugin (hooks, MCP, tool-name mod)
  dp init --plugin --scope project   # the team's plugin, committed in .claude/
  dp init --json
"""


@shared("db", "json")
def init(
    scope: Optional[str] = SCOPE_OPTION,
    settings: Optional[Path] = SETTINGS_OPTION,
    permission: str = PERMISSION_OPTION,
    mode: str = MODE_OPTION,
    mcp: bool = typer.Option(
        False, "--mcp", help="Also register the dp MCP server with Claude Code (user, or project with --scope project)."
    ),
    yes: bool = YES_OPTION,
    no_capture: bool = typer.Option(
        False, "--no-capture", help="Do not install the dp-capture hooks that record failed tool calls."
    ),
    agent: Optional[str] = AGENT_OPTION,
    plugin: bool = typer.Option(
        False, "--plugin", help="Install dp as a Claude Code plugin (user, or project with --scope project)."
    ),
    opts: Shared = None,
) -> None:
    from dp.cli.commands.pave import check_permission, describe_hook_result
    from dp.errors import DpError
    from dp.install.hook import agent_named, check_agent_permission
    from dp.install.init import init as set_up

    chosen = agent_named(agent)  # a bad name fails before anything is created
    if mcp and chosen.name != "claude":
        raise DpError(f"--mcp registers dp's MCP server with Claude Code, not {chosen.display}")
    check_agent_permission(chosen, permission)
    check_permission(permission, yes)
    if plugin and (mcp or chosen.name != "claude"):
        raise DpError("--plugin is Claude Code's plugin and brings dp mcp with it; leave out --mcp and --agent")
    report = set_up(opts.store, scope, settings, permission, mode, mcp, capture=not no_capture, agent=chosen,
                    plugin=plugin)
    if opts.json:
        print_json(report)
    elif plugin:
        from dp.cli.commands.pave import describe_plugin_result

        _print_report(report["store"], describe_plugin_result(report["plugin"]), report["demo"], report["paving"],
                      chosen, label="Plugin:", plugin=True)
    else:
        _print_report(report["store"], describe_hook_result(report["hook"]), report["demo"], report["paving"], chosen)
        if "mcp" in report:
            _print_mcp(report["mcp"])
    if not report["demo"]["ok"]:
        raise DpError("the installed hook failed the demonstration above; run 'dp doctor' to see why")


def _print_paving(paving: dict) -> None:
    if paving["enabled"]:
        typer.echo("Paving: on — the agent's npm/yarn/pnpm/bun commands, Python tools and task commands")
        typer.echo("       run with each project's own tools (dp paving shows how; dp paving off to stop)")
    else:
        typer.echo("Paving: off (you switched it off; dp paving on turns it back on)")


def _print_report(store: dict, hook_lines: list[str], shown: dict, paving: dict, agent=None, label: str = "Hook:",
                  plugin: bool = False) -> None:
    rules = store["rules"]
    typer.echo(
        f"Store: {store['path']} ({store['status']}, schema {store['schema_version']}, "
        f"{rules} rule{'s' if rules != 1 else ''})"
    )
    typer.echo(f"{label:<6} {hook_lines[0]}")
    for line in hook_lines[1:]:
        typer.echo(f"     {line}")
    _print_paving(paving)
    typer.echo("")
    typer.echo("Live demo: the installed hook, with a throwaway store holding two sample rules")
    typer.echo(f"(rules: {', '.join(shown['rules'])}):")
    _print_block(shown["block"], plugin)
    rewrite = shown["rewrite"]
    typer.echo(f"  agent runs {rewrite['tool_name']}: {rewrite['command']}")
    if rewrite["rewritten"]:
        typer.echo(f"    -> runs instead: {rewrite['rewritten']}")
    elif rewrite["advice"]:
        typer.echo(f"    -> denied with advice (--mode advise): {rewrite['advice']}")
    else:
        typer.echo(f"    -> NOT rewritten (exit {rewrite['exit_code']}) {rewrite['error']}".rstrip())
    if rewrite["additional_context"]:
        typer.echo(f"    the agent is told: {rewrite['additional_context']}")
    if shown["ok"]:
        typer.echo("")
        typer.echo("Next:")
        typer.echo("  dp alias --cmd grep --replace rg          add your own rules (see dp alias --help)")
        if agent is None or agent.name == "claude":
            typer.echo("  dp pave --agents-md --output AGENTS.md    tell the agent about them up front")
        else:
            typer.echo(f"  dp pave --agents-md --agent {agent.name} --output {agent.instructions_file}"
                       "    tell the agent about them up front")
        typer.echo("  dp doctor                                 check the whole setup")


def _print_block(block: dict, plugin: bool) -> None:
    """The demo's tool-name alias, and with the plugin what the real client does with it."""
    typer.echo(f"  agent calls tool {block['tool_name']}")
    if block["ok"]:
        how = "exit 2" if block["exit_code"] == 2 else "decision deny"
        typer.echo(f"    -> blocked ({how}): {block['message']}")
    else:
        typer.echo(f"    -> NOT blocked (exit {block['exit_code']}) {block['error'] or block['message']}".rstrip())
    if plugin:
        from dp.install.demo import BLOCK_RULE

        typer.echo(f"    in Claude Code 2.1.286+ the plugin's mod runs it as {BLOCK_RULE.to_name} (dp doctor says if it "
                   "loaded); older clients refuse it and are told the right name (SessionStart, PostToolBatch)")


def _print_mcp(result: dict) -> None:
    from dp.cli.commands.pave import describe_mcp_result

    lines = describe_mcp_result(result)
    typer.echo("")
    typer.echo(f"MCP:   {lines[0]}")
    for line in lines[1:]:
        typer.echo(f"     {line}")


def register(app: typer.Typer) -> None:
    app.command("init", help=HELP, short_help="Create the store, install the hook, show a live demo.")(init)
