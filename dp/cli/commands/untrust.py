"""``dp untrust``: take back the trust in this repository's project rules."""

from __future__ import annotations

import typer

from dp.cli.common import note, print_json, status
from dp.cli.options import Shared, shared
from dp.cli.rehearsal import DRY_RUN_OPTION, rehearsed

HELP = """Forget your trust in this repository: its .dp/rules.toml and .dp/rules.local.toml, and its
own environment for project paving.

Their rules stop acting for your agents, and paving stops running the
repository's own programs, until you run dp trust again.

\b
Examples:
  dp untrust --dry-run           # which trust would go, which settings would change
  dp untrust
"""


@shared()
@rehearsed
def untrust(dry_run: bool = DRY_RUN_OPTION, *, opts: Shared) -> None:
    from dp.layers import trusting

    forgotten = trusting.untrust(opts.store, opts.directory)
    if opts.json:
        print_json(forgotten)
    elif not forgotten:
        note("Nothing to forget: this repository was not trusted.")
    for item in forgotten:
        status(f"No longer trusted: {item['path']}")


def register(app: typer.Typer) -> None:
    app.command("untrust", help=HELP, short_help="Forget the trust in this repository's project rules.")(untrust)
