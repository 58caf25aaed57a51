"""``dp suggest``: aliases proposed from the captured failures, and ``--apply ID``."""

from __future__ import annotations

import shlex

import typer

from dp.cli.common import note, print_json
from dp.cli.options import Shared, shared
from dp.cli.rehearsal import rehearsed

HELP = """Propose aliases from the captured failures, each with its evidence.

Evidence: hallucinated tool names (matched to a real tool by name and input),
"command not found" followed by a sibling that worked (python → python3),
subcommand typos (the tool's own hint, or a subcommand seen working), and
unknown options followed by success with another flag. A suggestion needs
--min-count N events; without the option, 2, or 1 when its evidence is
unambiguous on its own (the tool's own "did you mean"). An explicit N is
always honoured.

--apply ID creates the rule exactly as `dp alias` would (same validation,
same output).

\b
Examples:
  dp suggest
  dp suggest --min-count 3 --json
  dp suggest --apply s1b2c3d           # from fewer than 3 sessions: in shadow first
  dp suggest --apply s1b2c3d --act     # acting now
  dp suggest --team                              # from the team's failures (dp team)
  dp suggest --team --apply s1b2c3d --project    # the team's rule, in .dp/rules.toml
"""

# Below this many sessions a suggestion applied goes in shadow first (--act overrides): one or two sessions may
# be one task's habit or one agent's slip, and a rewrite acts on every later call; three sessions are three
# separate tasks that hit the same failure and the same fix, and a shadow rule's record then shows within
# days whether agents go that way on their own (docs/stats.md).
SHADOW_BELOW_SESSIONS = 3


@shared()
@rehearsed(own_plan=True)
def suggest(
    apply: str | None = typer.Option(None, "--apply", metavar="ID", help="Create the suggested rule ID."),
    min_count: int | None = typer.Option(
        None, "--min-count", min=1, metavar="N",
        help="Events a suggestion needs (default: 2, or 1 for unambiguous evidence)."),
    project: bool = typer.Option(False, "--project", help="With --apply: write the rule to this repository's .dp/rules.toml."),
    dry_run: bool = typer.Option(False, "--dry-run", help="With --apply: say what rule would be made; change nothing."),
    shadow: bool = typer.Option(False, "--shadow", help="With --apply: the rule only records what it would do (dp stats); it rewrites nothing."),
    act: bool = typer.Option(False, "--act", help=f"With --apply: the rule acts now, even when learned from fewer than {SHADOW_BELOW_SESSIONS} sessions."),
    team: bool = typer.Option(False, "--team", help="From the team's failures (dp team connect), with how many people hit each."),
    *, opts: Shared,
) -> None:
    from dp.errors import DpError

    db = opts.store
    _check_together(apply, project=project, dry_run=dry_run, shadow=shadow, act=act)
    found = _found(opts, team, 1 if apply else min_count)
    if apply:
        chosen = next((item for item in found if item["id"] == apply.strip()), None)
        if chosen is None:
            raise DpError(f"no pending suggestion {apply!r}; list them with: dp suggest{' --team' if team else ''}")
        where = ["--project", "--cwd", str(opts.directory)] if project else []
        if _in_shadow(chosen, shadow, act or project, apply.strip(), opts.json):
            where.append("--shadow")
        _apply(db, chosen["alias"], opts.json, where + (["--dry-run"] if dry_run else []))
        return
    if opts.json:
        print_json(found)
    elif not found:
        needs = (f"{min_count} matching failures" if min_count is not None
                 else "2 matching failures, or 1 when unambiguous")
        note(f"No suggestions (each needs {needs}; see dp paths).")
    else:
        typer.echo(render(found))
        note(f"Apply one with: dp suggest{' --team' if team else ''} --apply ID"
             + (" [--project]" if team else ""))
    if not opts.json:
        _offer_promotions(db)


def _check_together(apply: str | None, *, project: bool, dry_run: bool, shadow: bool, act: bool) -> None:
    """The options that go only with --apply, and the two that never go together, refused in one line."""
    from dp.errors import DpError

    if (project or dry_run or shadow or act) and not apply:
        option = next(name for name, given in (("--project", project), ("--dry-run", dry_run), ("--shadow", shadow),
                                               ("--act", act)) if given)
        raise DpError(f"{option} goes with --apply ID: dp suggest --apply ID {option}", exit_code=2)
    if shadow and (act or project):
        raise DpError(f"--shadow and {'--act' if act else '--project'} do not go together: a shadow rule is your own "
                      "and rewrites nothing", exit_code=2)


def _found(opts: Shared, team: bool, min_count: int | None) -> list[dict]:
    """The pending suggestions: from the team's aggregates, or from this store's captured failures (whose
    learned answers are brought up to date first); a rule in effect or in shadow is pending no more."""
    from dp.layers.view import in_effect
    from dp.store.readers import read_shadow_rules

    db = opts.store
    rules, _ = in_effect(db, str(opts.directory))
    rules = rules + read_shadow_rules(db)
    if team:
        from dp.team.views import suggest as propose_team
        from dp.team.views import team_groups

        groups, stale = team_groups(db, str(opts.directory))
        if stale:
            note(stale)
        return propose_team(groups, rules, min_count)
    from dp.capture.events import now_iso
    from dp.desires.query import captured
    from dp.desires.suggest import suggest as propose
    from dp.learn.store import relearn_at

    relearn_at(db, now_iso())  # the answers the capture hook tells at the moment of failure
    with captured(db) as conn:
        return propose(conn, rules, min_count) if conn is not None else []


def _in_shadow(chosen: dict, shadow: bool, acts: bool, ident: str, quiet: bool) -> bool:
    """Whether the applied suggestion goes in shadow: asked (--shadow), or by default when it was learned
    from fewer than SHADOW_BELOW_SESSIONS sessions and neither --act nor --project was given (said once)."""
    if shadow:
        return True
    sessions = chosen.get("sessions", 0)
    blocks = not any(arg.startswith("--") for arg in chosen["alias"])  # a tool-name alias: no rewrite to watch
    if acts or blocks or sessions >= SHADOW_BELOW_SESSIONS:
        return False
    if not quiet:
        note(f"learned from {sessions} session{'s' if sessions != 1 else ''} (fewer than {SHADOW_BELOW_SESSIONS}): "
             "set in shadow, where it records what it would do (dp stats) and rewrites nothing; make it act with "
             f"dp suggest --apply {ident} --act, or once its record is clean as dp suggest offers")
    return True


def _offer_promotions(db) -> None:
    """Each shadow rule whose record is clean (dp.desires.stats.clean_shadows), with the command that makes it act."""
    from dp.desires.query import captured
    from dp.desires.stats import clean_shadows
    from dp.rules.apply import label
    from dp.rules.build import alias_args
    from dp.store.readers import read_shadow_rules

    shadows = read_shadow_rules(db)
    if not shadows:
        return
    with captured(db) as conn:
        clean = clean_shadows(conn) if conn is not None else set()
    for rule in shadows:
        if label(rule) in clean:
            note(f"shadow rule {label(rule)} has a clean record (dp stats); make it act: "
                 f"{alias_command(alias_args(rule))}")


def alias_command(alias: list[str]) -> str:
    return shlex.join(["dp", "alias", *alias])


def _apply(db, alias: list[str], as_json: bool, where: list[str]) -> None:
    """Run ``dp alias …`` in this process: the same parsing, validation and output as typing it."""
    from dp.cli.app import build_app

    args = ["--db", str(db), "alias", *(["--json"] if as_json else []), *where, *_made(where), *alias]
    build_app("alias")(args=args, prog_name="dp", standalone_mode=False)


def _made(where: list[str]) -> list[str]:
    """The rule's origin for ``dp alias``: dp made it from evidence, so clear evidence that it hurts switches it
    off (dp.desires.hurting); a rule for the repository's file is the repository's, which has no origin."""
    from dp.store.write import SUGGESTED

    return [] if "--project" in where else ["--origin", SUGGESTED]


_TEAM_COUNTS = (("people", "person", "people"), ("machines", "machine", "machines"),
                ("repositories", "repository", "repositories"))


def render(found: list[dict]) -> str:
    """The suggestions as text blocks; what dp did not write (a captured command, a team's shape)
    reaches the terminal only as ``printable`` text."""
    from dp.cli.commands.desires import describe_input, fold
    from dp.terminal import printable

    blocks = []
    for item in found:
        events = f"{item['count']} event{'s' if item['count'] != 1 else ''}, {item['sessions']} session{'s' if item['sessions'] != 1 else ''}"
        if "people" in item:
            events += "".join(f", {item[key]} {word if item[key] == 1 else plural}" for key, word, plural in _TEAM_COUNTS)
        lines = [f"{item['id']}  {item['kind']:<10}  confidence {item['confidence']:.2f}  {events}",
                 f"    {alias_command(item['alias'])}",
                 f"    why: {item['reason']}"]
        if (item.get("answered") or {}).get("told"):
            told, ran = item["answered"]["told"], item["answered"]["followed"]
            lines.append(f"    answered after the failure {told} time{'s' if told != 1 else ''}; "
                         f"the agent then ran the answer {ran} time{'s' if ran != 1 else ''}")
        for event in item["evidence"]:
            then = f"  → then: {event['then']}" if event.get("then") else ""
            lines.append(f"    e.g. {fold(describe_input(event['tool_name'], event['tool_input']), 50)}: "
                         f"{fold(event['error'], 60)}{then}")
        blocks.append("\n".join(lines))
    return printable("\n\n".join(blocks))


def register(app: typer.Typer) -> None:
    app.command("suggest", help=HELP, short_help="Propose aliases from captured failures (--apply ID).")(suggest)
