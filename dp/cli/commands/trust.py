"""``dp trust``: let this repository's .dp/rules.toml (and .dp/rules.local.toml) act for you, and paving use its environment."""

from __future__ import annotations

import typer

from dp.cli.common import note, print_json, status
from dp.cli.options import Shared, shared

HELP = """Trust this repository: its project rules as they are now (like direnv allow), and
its own environment for project paving.

A committed .dp/rules.toml can rewrite every command your agent runs, so it
acts only after you trust it: dp records the SHA-256 of each file
(.dp/rules.toml and your .dp/rules.local.toml) in your own store, never in
the repository, with the repository it was trusted in (it acts nowhere
else). A changed file stops acting until you trust it again.

Until then project paving never runs a program the repository supplies
(.venv, node_modules/.bin, a Makefile recipe, a package manager's hooks):
npm test still becomes pnpm test in a pnpm project, but ruff is not run
through uv run. After dp trust it is (dp paving says which case applies).

\b
Examples:
  dp trust --show     what the files would do, in words (nothing is trusted)
  dp trust
  dp untrust
"""


@shared()
def trust(
    show: bool = typer.Option(False, "--show", "--dry-run",
                              help="Print what the files would do, in words; trust nothing."),
    opts: Shared = None,
) -> None:
    from dp.layers import trusting

    if show:
        root, project = trusting.layers_here(opts.store, opts.directory)
        if project is None:
            from dp.errors import DpError

            raise DpError(f"{root} has no .dp/rules.toml or .dp/rules.local.toml; nothing to show (dp trust here "
                          "trusts the repository's own environment for project paving only)")
        if opts.json:
            print_json([{**layer.to_dict(), "rules_in_words": _words(layer)} for layer in project.layers])
        else:
            typer.echo("\n".join(trusting.describe(project)))
        return
    reports = trusting.trust(opts.store, opts.directory)
    from dp.cli.commands.pave import sync_hooks

    sync_hooks(opts.store)
    if opts.json:
        print_json(reports)
        return
    for report in reports:
        if report["source"] == trusting.REPOSITORY_SOURCE:
            status(f"Trusted {report['path']}: project paving may use its own environment here")
            continue
        count = report["rules"]
        again = " again" if report["was"] == "changed" else ""
        status(f"Trusted{again} {report['path']} ({count} rule{'s' if count != 1 else ''}, "
               f"sha256 {report['sha256'][:12]}…)")
    if len(reports) > 1:
        note("They act for your agents in this repository until the file changes; dp untrust takes the trust back.")
    else:
        note("No project rules to trust here; dp untrust takes the trust back.")


def _words(layer) -> list[str]:
    from dp.rules.wording import rule_line

    return [rule_line(rule) for rule in layer.file.rules]


def register(app: typer.Typer) -> None:
    app.command("trust", help=HELP, short_help="Trust this repository's .dp/rules.toml and environment (--show first).")(trust)
