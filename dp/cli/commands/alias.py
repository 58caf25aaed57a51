"""``dp alias``: create, update or delete one rule."""

from __future__ import annotations

import typer

from dp.cli.common import print_json, read_text_argument, status, warning
from dp.cli.options import Shared, shared
from dp.cli.rehearsal import rehearsed
from dp.rules.wording import describe, describe_key

HELP = """Create, update (same key) or delete one alias rule.

\b
Modes:
  dp alias read_file Read                         tool name: block read_file, suggest Read
  dp alias --cmd scp --flag r R                   flag: scp -r ... -> scp -R ...
  dp alias --cmd grep --replace rg                command: grep ... -> rg ...
  dp alias --cmd scp "user@old:" "user@new:"      literal text inside scp commands
  dp alias --tool Edit --param file_path /old /new     a tool parameter (add --regex)
  dp alias --recipe "gt await-signal" 'gt mol status --wait'   replace a command prefix
  dp alias --recipe "gt convoy wait" --file wait.sh    recipe script from a file (- = stdin)
\b
Delete with the same identifying options:
  dp alias --delete read_file
  dp alias --delete --cmd scp --flag r R
  dp alias --delete --recipe "gt await-signal"
"""


@shared()
@rehearsed(own_plan=True)
def alias(
    args: list[str] | None = typer.Argument(None, metavar="[FROM [TO]]", show_default=False, help="What to match and what it becomes (see the modes above)."),
    cmd: str | None = typer.Option(None, "--cmd", metavar="CMD", help="Scope the rule to Bash commands running CMD."),
    flag: tuple[str, str] | None = typer.Option(
        None, "--flag", metavar="OLD NEW", help="Flag correction (r R, -r -R or --recursive -R); needs --cmd."
    ),
    replace: str | None = typer.Option(None, "--replace", metavar="NEW", help="Replace the command CMD with NEW."),
    tool: str | None = typer.Option(None, "--tool", metavar="TOOL", help="Target TOOL's parameter (with --param)."),
    param: str | None = typer.Option(None, "--param", metavar="PARAM", help="The parameter of --tool to rewrite."),
    regex: bool = typer.Option(False, "--regex", help="FROM is a Python regex; TO may use \\1 or $1."),
    recipe: bool = typer.Option(False, "--recipe", help="Replace a command prefix with a Jinja2 script."),
    file: str | None = typer.Option(None, "--file", metavar="FILE", help="Read the recipe script from FILE (- for stdin)."),
    message: str = typer.Option("", "--message", "-m", metavar="TEXT", help="Why; shown to the agent with the correction."),
    delete: bool = typer.Option(False, "--delete", help="Delete the rule these options identify."),
    force: bool = typer.Option(False, "--force", help="Allow aliasing a real tool name away, or an unknown --tool."),
    project: bool = typer.Option(False, "--project", help="Write the rule to this repository's .dp/rules.toml (committed, shared) instead of your store."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Check the rule and say what would change; change nothing."),
    shadow: bool = typer.Option(False, "--shadow", help="Only record what the rule would do (dp stats); rewrite nothing. The same rule without --shadow promotes it."),
    origin: str = typer.Option("", "--origin", hidden=True, help="suggest: dp suggest --apply made the rule."),
    *, opts: Shared,
) -> None:
    from dp.agents import canonical_rule, refuse_unless_forced
    from dp.rules.build import build_rule

    rule = build_rule(
        list(args or []),
        cmd=cmd,
        flag=flag,
        replace=replace,
        tool=tool,
        param=param,
        regex=regex,
        recipe=recipe,
        script=read_text_argument(file, "the recipe script") if file is not None else None,
        message=message,
        delete=delete,
    )
    rule = canonical_rule(rule)
    refuse_unless_forced(rule, force or delete)
    rule.origin = _origin(origin)
    if shadow:
        _shadow(rule, delete, project, dry_run, opts)
        return
    if project:
        _in_project(rule, delete, opts, dry_run)
        return
    if dry_run:
        _report(_planned(rule, delete, opts.store), rule, opts, dry_run=True)
        return
    action, rule, before = _change(opts.store, rule, delete)
    if action != "deleted" and (before is None or before.to_name != rule.to_name):  # once per target
        _warn_about_target(rule)
    _report(action, rule, opts)


def _origin(given: str) -> str:
    """The rule's origin: ``suggest`` only from ``dp suggest --apply`` (which passes the hidden --origin),
    the person's ('') otherwise. Marking a rule dp's can only narrow: dp may then switch it off on clear
    evidence that it hurts (dp.desires.hurting), never widen it."""
    from dp.errors import DpError
    from dp.store.write import SUGGESTED

    if given not in ("", SUGGESTED):
        raise DpError(f"--origin {given!r}: the only origin is {SUGGESTED} (dp suggest --apply)", exit_code=2)
    return given


def _change(db_path, rule, delete: bool, shadow: bool = False) -> tuple:
    """Set or delete ``rule`` in the store (its shadow rules with ``shadow``): (action, the stored rule,
    the rule it replaced or None)."""
    from dp.errors import DpError
    from dp.store import Store

    before = None
    with Store.open(db_path) as store:
        if delete:
            deleted = store.delete_shadow(rule) if shadow else store.delete_rule(rule)
            if deleted is None:
                where = "(dp stats lists them)" if shadow else "(list them with: dp aliases)"
                noun = "shadow rule" if shadow else _noun(rule).lower()
                raise DpError(f"not found: no {noun} {describe_key(rule)} {where}")
            return "deleted", deleted, None
        if shadow:
            action = store.set_shadow(rule)
            return action, store.shadow_rules(rule)[0], None
        before = store.get_rule(rule)
        action = store.set_rule(rule)
        return action, store.get_rule(rule), before


def _planned(rule, delete: bool, db_path) -> str:
    """What ``dp alias`` would do to the store ("set", "updated", "unchanged", "deleted"), read-only."""
    from dp.errors import DpError
    from dp.store import reading

    with reading(db_path) as store:
        existing = store.get_rule(rule) if store is not None else None
    if delete and existing is None:
        raise DpError(f"not found: no {_noun(rule).lower()} {describe_key(rule)} (list them with: dp aliases)")
    if delete:
        return "deleted"
    if existing is None:
        return "set"
    return "unchanged" if (existing.to_name, existing.message) == (rule.to_name, rule.message) else "updated"


def _report(action: str, rule, opts, dry_run: bool = False, where: str = "", extra: dict | None = None) -> None:
    """The line (or JSON) saying what was done to ``rule``, or with ``dry_run`` what would be."""
    if opts.json:
        print_json({"action": action, **rule.to_dict(), **(extra or {}), **({"dry_run": True} if dry_run else {})})
        return
    place = {"deleted": f" from {where}", "set": f" in {where}", "updated": f" in {where}",
             "unchanged": f" in {where}"}.get(action, "") if where else ""
    shown = describe_key(rule) if action == "deleted" else describe(rule)
    if dry_run:
        status(f"{_noun(rule)} would be {action}{place}: {shown} (dry run; nothing was changed)")
    else:
        status(f"{_noun(rule)} {action}{place}: {shown}")


def _in_project(rule, delete: bool, opts, dry_run: bool = False) -> None:
    """``--project``: the same rule, written to the repository's .dp/rules.toml (dp.layers.edit)."""
    from dp.errors import DpError
    from dp.layers import edit

    path = edit.project_path(opts.directory)
    if delete:
        deleted = edit.delete_rule(opts.store, path, rule, dry_run)
        if deleted is None:
            raise DpError(f"not found: no {_noun(rule).lower()} {describe_key(rule)} in {path}")
        action, rule = "deleted", deleted
    else:
        action, rule = edit.set_rule(opts.store, path, rule, dry_run)
        if not dry_run:
            _warn_about_target(rule)
    _report(action, rule, opts, dry_run, where=path, extra={"source": "project", "file": path})


def _shadow(rule, delete: bool, project: bool, dry_run: bool, opts) -> None:
    """``--shadow``: the rule in the store's shadow rules, where it records what it would do and rewrites
    nothing (docs/stats.md); ``--delete --shadow`` removes one. A tool-name alias blocks rather than rewrites,
    and a project file's rules are the repository's: neither has a shadow."""
    from dp.errors import DpError

    if project:
        raise DpError("--shadow goes without --project: a shadow rule is your own and changes nothing the agent runs")
    if rule.match_kind == "":
        raise DpError("a tool-name alias has no shadow: it blocks a call, it does not rewrite one")
    if dry_run:
        status(f"Shadow rule would be {'deleted' if delete else 'set'}: {describe(rule)} (dry run; nothing was changed)")
        return
    action, rule, _ = _change(opts.store, rule, delete, shadow=True)
    if opts.json:
        print_json({"action": action, "shadow": True, **rule.to_dict()})
        return
    shown = describe_key(rule) if action == "deleted" else describe(rule)
    status(f"Shadow rule {action}: {shown}" + ("" if action == "deleted" else
           " (records what it would do in dp stats; rewrites nothing; the same dp alias without --shadow "
           "makes it act)"))


def _warn_about_target(rule) -> None:
    """What a new target means before it acts: flags passed through unchanged (no table), a
    program not on PATH (the hook leaves the command as typed until it is there)."""
    from dp.doctor.rules import missing_program
    from dp.rules.tables.pairs import pairs_text, renames_only

    if renames_only(rule):
        warning(
            f"dp has no translation table for {rule.command} → {rule.to_name}: the command is renamed and its "
            f"flags pass through unchanged (tables: {pairs_text()})"
        )
    missing = missing_program(rule)
    if missing is not None:
        warning(f"{missing.message}; the rule is set. To fix: {missing.fix}")


def _noun(rule) -> str:
    return "Alias" if rule.match_kind == "" else "Rule"


def register(app: typer.Typer) -> None:
    app.command(name="alias", help=HELP, short_help="Create, update or delete an alias rule.")(alias)
