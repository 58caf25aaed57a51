"""``dp doctor``: is the store readable, the hook installed and fast, and can every rule fire?"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from dp.cli.common import paint, print_json
from dp.cli.options import Shared, shared
from dp.cli.shared import existing_directory
from dp.terminal import printable

HELP = """Check the whole setup and say how to fix what is wrong.

Checks the store (opens, schema current, rules by kind), the project rule
files of --cwd's repository (each layer: acting, waiting for dp trust, changed
since trusted, or broken at a line), where the hook is
installed (user, project and local settings) and that its program exists,
is executable and is not a pyenv/asdf shim, other PreToolUse hooks that also
run on Bash (only one rewrite survives), rules that can never fire or that
shadow a real tool (yours and the project files', each named by file and line), and the measured time of one real hook call.
Exits 1 when any check finds an error.

\b
Examples:
  dp doctor
  dp doctor --json | jq '.checks[] | select(.status != "ok")'
  dp doctor --settings ./ci/claude-settings.json
  dp doctor --fix       # repair a missing store, a stale gate, hook entries of a removed dp
  dp doctor --live      # your claude, a local fake model, a temporary project: does dp work end to end?
  dp doctor --live --agent gemini   # the same with your gemini
"""

def _live_agents() -> str:
    """``claude (default) or gemini``: the agents with a live probe, for the option's help."""
    from dp.agents import listing, with_role

    return listing(with_role("live"))


_LABEL = {"ok": "ok", "warning": "warn", "error": "ERROR"}
_COLOUR = {"ok": "ok", "warning": "warning", "error": "error"}


@shared()
def doctor(
    settings: Path | None = typer.Option(None, "--settings", metavar="PATH", help="Also check this settings file."),
    live: bool = typer.Option(False, "--live", help="Run your claude against a local fake model and show what dp did."),
    fix: bool = typer.Option(False, "--fix", help="First repair what needs no decision: a missing store, a stale "
                                                  "gate, hook entries running a dp program that is gone."),
    agent: str | None = typer.Option(None, "--agent", metavar="NAME",
                                        help=f"With --live: the agent to run, {_live_agents()}."),
    *, opts: Shared,
) -> int:
    if agent is not None and not live:
        from dp.errors import DpError

        raise DpError("--agent goes with --live (dp doctor checks every agent dp is installed for)")
    if fix and live:
        from dp.errors import DpError

        raise DpError("--fix goes without --live: run dp doctor --fix, then dp doctor --live")
    if live:
        return _live(opts, agent)
    from dp.doctor.checks import run_all
    from dp.doctor.findings import ERROR, summary

    cwd = existing_directory(opts.directory)
    fixed = _fix(opts.store, cwd) if fix else None
    findings = run_all(opts.store, cwd, settings, own_lines=_agents_own_lines)
    counts = summary(findings)
    by_person = _by_person(findings)
    if opts.json:
        print_json({"ok": counts[ERROR] == 0, **({"fixed": fixed} if fix else {}), "summary": counts,
                    "checks": [{**f.to_dict(), **({"person_runs": True} if f in by_person else {})} for f in findings]})
    else:
        from dp.widening import PERSON_ONLY

        for line in fixed or []:
            typer.echo(f"fixed  {line}")
        if fix:
            typer.echo("" if fixed else "nothing to fix\n")
        for finding in findings:
            label = paint(f"{_LABEL[finding.status]:<5}", _COLOUR[finding.status])
            typer.echo(f"{label}  {finding.check:<11} {printable(finding.message)}")
            if finding.fix:
                typer.echo(f"{'':<18} fix{f' ({PERSON_ONLY})' if finding in by_person else ''}: {printable(finding.fix)}")
        typer.echo(f"\n{counts['ok']} ok, {counts['warning']} warning(s), {counts['error']} error(s)")
    if counts[ERROR]:
        raise typer.Exit(1)
    return 0


def _fix(store: Path, cwd: Path) -> list[str]:
    from dp.doctor.fix import repair

    return repair(store, cwd)


def _by_person(findings) -> list:
    """Inside an agent's tool call (dp.cli.person), the findings whose fix runs a dp command only the
    person runs (dp.widening): the agent reads the fix as the person's to type, never its own."""
    from dp.cli.person import inside_agent

    if inside_agent()[0] is None:
        return []
    from dp.widening import in_command

    return [finding for finding in findings if finding.fix and in_command(finding.fix) is not None]


def _agents_own_lines(db_path, cwd, rules) -> list:
    """Each agent's own ``dp doctor`` lines (its "doctor" role, which builds on dp.doctor: looked up here,
    above both)."""
    from dp.agents import with_role

    return [finding for agent in with_role("doctor") for finding in agent.role("doctor").check(db_path, cwd, rules)]


def _live(opts: Shared, agent_name: str | None = None) -> int:
    from dp.install.hook import agent_named
    from dp.store import read_rules

    agent = agent_named(agent_name)
    live = agent.role("live")
    if live is None:
        from dp.errors import DpError

        raise DpError(f"dp doctor --live does not run {agent.display} yet (it runs {_live_agents()})")
    report = live.run(opts.store, read_rules(opts.store), agent)
    report.setdefault("client", agent.display)
    fired = all(probe["fired"] for probe in report["probes"])
    if opts.json:
        print_json({"ok": fired, **report})
    else:
        _print_live(report)
    if not fired:
        raise typer.Exit(1)
    return 0


def _print_live(report: dict) -> None:
    client, binary = report["client"], report.get("binary")
    typer.echo(f"{client} {report['version'] or '(version unknown)'} ({binary}) against a fake model "
               "on 127.0.0.1, in a temporary project and HOME:")
    typer.echo(f"  session start: the model was shown {report['session_start']!r}" if report["session_start"]
               else "  session start: no dp context reached the model")
    for probe in report["probes"]:
        typer.echo(f"  {probe['probe']}: the model called {probe['tool']} {json.dumps(probe['input'])}")
        typer.echo(f"    reached the model: {paint('yes', 'ok') if probe['fired'] else paint('NO', 'error')}")
        for line in probe["told"]:
            typer.echo(f"    the model was told: {line}")
        typer.echo(f"    the call returned: {probe['result'][:200]!r}")
        if not probe["fired"]:
            typer.echo(f"    why: {probe['verdict']}")
            typer.echo(f"    fix: {probe['fix']}")
    typer.echo(f"{paint('Verdict:', 'strong')} {report['verdict']}")


def register(app: typer.Typer) -> None:
    app.command("doctor", help=HELP, short_help="Check the store, the hook and the rules; say how to fix problems.")(
        doctor
    )
