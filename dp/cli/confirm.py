"""Asking before dp deletes what it cannot bring back: one way for every destructive command.

``dp desires --purge`` and ``dp uninstall --purge`` delete a person's data. Each asks on a terminal
and takes ``--yes`` (``-y``) instead; without a terminal and without ``--yes`` it is one clear error
and nothing is deleted, so a script never deletes by accident and never hangs on a prompt.
Declining is no error: one calm line, exit status 1, nothing deleted.
"""

from __future__ import annotations

import sys

import typer

YES_OPTION = typer.Option(False, "--yes", "-y", help="Delete without asking (needed without a terminal).")


def confirm_deletion(what: str, option: str, yes: bool) -> None:
    """Return when ``what`` may be deleted; otherwise stop, having deleted nothing.

    ``option`` is the command line that deletes (``dp desires --purge``), named in the error.
    """
    from dp.errors import DpError

    if yes:
        return
    if not sys.stdin.isatty():
        raise DpError(f"{option} deletes {what}: add --yes to delete without asking (nothing was deleted)")
    if not typer.confirm(f"Delete {what}?", default=False):
        print("dp: nothing deleted", file=sys.stderr)
        raise typer.Exit(1)
