"""``dp aliases``: list rules, and export / import shareable collections."""

from __future__ import annotations

import sys
from datetime import datetime, timezone
from enum import Enum
from pathlib import Path

import typer

from dp.cli.common import MAX_COLLECTION_BYTES, note, print_json, read_text_argument
from dp.cli.options import Shared, shared
from dp.cli.rehearsal import DRY_RUN_OPTION, rehearsed
from dp.rules.model import MATCH_KINDS, kind_label

LIST_HELP = """List every rule (table, or --json for the full rows).

\b
Examples:
  dp aliases
  dp aliases --cmd scp
  dp aliases --kind recipe --json
  dp aliases export -o team.toml
  dp aliases import team.toml --dry-run
"""

# The kinds as people name them (``alias`` for tool-name aliases), from the model's one list.
Kind = Enum("Kind", {kind_label(kind): kind_label(kind) for kind in MATCH_KINDS}, type=str)  # type: ignore[misc]


class Format(str, Enum):
    toml = "toml"
    json = "json"


class Conflict(str, Enum):
    skip = "skip"
    overwrite = "overwrite"


@shared()
def list_aliases(
    ctx: typer.Context,
    tool: str | None = typer.Option(None, "--tool", metavar="TOOL", help="Only rules for TOOL (Bash, Edit, …)."),
    cmd: str | None = typer.Option(None, "--cmd", metavar="CMD", help="Only rules scoped to command CMD."),
    kind: Kind | None = typer.Option(
        None, "--kind", metavar="alias|flag|command|literal|regex|recipe", help="Only rules of this kind."),
    *, opts: Shared,
) -> None:
    if ctx.invoked_subcommand is not None:
        return
    from dp.cli import remembered
    from dp.cli.views import aliases

    remembered.run(aliases.show, opts, tool=tool, cmd=cmd, kind=kind.value if kind else None)


@shared()
@rehearsed
def export(
    output: Path | None = typer.Option(None, "--output", "-o", metavar="FILE", help="Write to FILE (default stdout)."),
    fmt: Format = typer.Option(Format.toml, "--format", metavar="toml|json", help="File format."),
    name: str = typer.Option("", "--name", metavar="TEXT", help="Collection name for [meta]."),
    description: str = typer.Option("", "--description", metavar="TEXT", help="Collection description for [meta]."),
    author: str = typer.Option("", "--author", metavar="TEXT", help="Collection author for [meta]."),
    dry_run: bool = DRY_RUN_OPTION,
    *, opts: Shared,
) -> None:
    """Export every rule as a shareable collection (TOML or JSON).

    \b
    Examples:
      dp aliases export > aliases.toml
      dp aliases export --format json -o team.json --name team --author me
      dp aliases export -o team.toml --dry-run    # the change to team.toml, as a diff
    """
    from dp.rules import collection
    from dp.store import read_rules

    rules = read_rules(opts.store)
    data = collection.build_collection(
        rules, datetime.now(timezone.utc), name=name, description=description, author=author
    )
    text = collection.dumps(data, fmt.value)
    if output is None:
        sys.stdout.write(text)
        return
    from dp.files import read_bytes, replace_file

    replace_file(output, text.encode("utf-8"), expected=read_bytes(output))
    note(f"Exported {len(rules)} rules to {output}")


@shared()
@rehearsed(own_plan=True)
def import_(
    file: str = typer.Argument(..., metavar="FILE", help="A .toml or .json collection (- for stdin)."),
    conflict: Conflict = typer.Option(Conflict.skip, "--conflict", metavar="skip|overwrite", help="What to do when a rule already exists."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Show what would change; write nothing."),
    force: bool = typer.Option(False, "--force", help="Allow entries that alias a real tool name away, or name an unknown tool."),
    project: bool = typer.Option(False, "--project", help="Import into this repository's .dp/rules.toml instead of your store."),
    *, opts: Shared,
) -> None:
    """Import a collection: every entry is validated first, then all land in one transaction.

    \b
    Examples:
      dp aliases import team.toml
      dp aliases import team.json --conflict overwrite
      dp aliases import team.toml --dry-run
    """
    from dp.agents import canonical_rule, refuse_unless_forced
    from dp.errors import DpError
    from dp.rules import collection
    from dp.store import Store

    text = read_text_argument(file, "the collection", limit=MAX_COLLECTION_BYTES)
    suffix = Path(file).suffix.lower().lstrip(".")
    try:
        rules = collection.parse(text, suffix if suffix in collection.FORMATS else None)
    except DpError as exc:  # which file, then what is wrong in it and where
        raise DpError(f"{'the collection on stdin' if file == '-' else file}: {exc.message}") from None
    rules = [canonical_rule(rule) for rule in rules]
    for number, rule in enumerate(rules, 1):
        refuse_unless_forced(rule, force, where=f"entry {number} ({rule.from_name}): ")
    if project:
        from dp.layers import edit

        report = edit.import_rules(opts.store, edit.project_path(opts.directory), rules, conflict.value, dry_run)
    else:
        with Store.open(opts.store) as store:
            report = store.import_rules(rules, conflict=conflict.value, dry_run=dry_run)
    summary = report.to_dict()
    if opts.json:
        print_json({**summary, "dry_run": dry_run})
        return
    if dry_run:
        from dp.cli.views.aliases import fold

        for action, rule in report.actions:
            note(f"  would {_VERB[action]}: {rule.kind_label} {rule.from_name} -> {fold(rule.to_name)}")
    prefix = "Dry run: would import" if dry_run else "Imported"
    note(
        f"{prefix} {summary['imported']}, skipped {summary['skipped']}, "
        f"overwritten {summary['overwritten']} (total: {summary['total']})"
    )


_VERB = {"imported": "import", "skipped": "skip (exists)", "overwritten": "overwrite"}


def register(app: typer.Typer) -> None:
    aliases = typer.Typer(help=LIST_HELP, short_help="List rules; export or import collections.")
    aliases.callback(invoke_without_command=True)(list_aliases)
    aliases.command(name="export")(export)
    aliases.command(name="import")(import_)
    app.add_typer(aliases, name="aliases")
