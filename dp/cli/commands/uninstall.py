"""``dp uninstall``: remove every hook entry and block dp installed; --purge also its data."""

from __future__ import annotations

import typer

from dp import UNINSTALL_HINT
from dp.cli.common import print_json, status
from dp.cli.confirm import YES_OPTION, confirm_deletion
from dp.cli.options import Shared, shared
from dp.cli.rehearsal import rehearsed

HELP = f"""Remove everything dp installed: its hook entries in Claude Code settings (every
scope it recorded, plus the user, project and local settings of this directory)
and its <!-- dp:begin --> blocks in AGENTS.md / CLAUDE.md. Each file gets back the
bytes it had before dp (when dp kept them); a file dp created is deleted, unless git
tracks it (a shared file: only dp's part goes, the file stays).

--purge also deletes the alias store, ~/.dp (backups, captured data) and dp's cache,
after asking (--yes answers for you), and says what stays in a team database this
store uploaded to (dp team sync) and how to delete it. dp itself stays installed: remove it with
{UNINSTALL_HINT}.

\b
Examples:
  dp uninstall --dry-run         # what would be removed
  dp uninstall                   # hooks and blocks out; rules kept
  dp uninstall --purge --yes     # and the store and every file of dp's
"""


@shared()
@rehearsed(own_plan=True)
def uninstall(
    purge: bool = typer.Option(False, "--purge", help="Also delete the store, ~/.dp and dp's cache."),
    yes: bool = YES_OPTION,
    dry_run: bool = typer.Option(False, "--dry-run", help="Show what would be removed; change nothing."),
    *, opts: Shared,
) -> None:
    from dp.agents import get
    from dp.cli.common import plugin_of
    from dp.install import uninstall as remover
    from dp.store import installs

    store = opts.store
    doomed = remover.purge_targets(store) if purge else []
    kept = remover.team_kept(store) if purge else []  # read before the purge deletes the team state
    if purge and doomed and not dry_run:
        confirm_deletion(", ".join(str(path) for path in doomed), "dp uninstall --purge", yes)
    plugin = plugin_of(get())  # the plugin builds on dp.install, which looks no agent's role up
    removers = {installs.PLUGIN: plugin.uninstall} if plugin is not None else {}
    reports = remover.uninstall(store, opts.directory.resolve(), dry_run=dry_run, removers=removers)
    if purge and not dry_run:
        doomed += remover.purge(doomed)
    if opts.json:
        print_json({"dry_run": dry_run, "removed": reports, "purged": [str(path) for path in doomed],
                    **({"team_kept": kept} if purge else {})})
    else:
        _print(reports, doomed, dry_run)
        for team in kept:
            status(f"Stays: what this machine uploaded to the team database {team['url']}; only its owner can "
                   f"delete it: {team['delete']}")
    if any(report["status"] == "error" for report in reports):
        raise typer.Exit(1)


_TEXT = {
    "removed": "removed dp's {what} from {path}",
    "not_installed": "no dp {what} left in {path}",
    "would_remove": "would remove dp's {what} from {path}",
    "error": "could not remove dp's {what} from {path}: {error}",
}
_WHAT = {"hook": "hook entries", "block": "block", "plugin": "Claude Code plugin and its marketplace"}


def _print(reports: list[dict], doomed: list, dry_run: bool) -> None:
    for report in reports:
        where = f"{report['path']} ({report['scope']} scope)" if report.get("scope") else report["path"]
        line = _TEXT[report["status"]].format(what=_WHAT.get(report["kind"], report["kind"]), path=where,
                                              error=report.get("error", ""))
        if report["kind"] == "plugin" and report.get("client"):
            line += _plugin_note(report["client"], dry_run) + _kept_note(report.get("kept_tracked"), dry_run, report["path"])
        elif report.get("deleted"):
            line += "; the file is dp's own and would be deleted" if dry_run else "; the file was dp's own and is deleted"
            if report.get("directories"):
                line += f", with the directory dp made for it ({', '.join(report['directories'])})"
        elif report.get("kept_tracked"):
            line += ("; git tracks the file, so it would stay" if dry_run else
                     "; git tracks the file, so it stays (commit the change, or git rm it if nothing else needs it)")
        status(line[0].upper() + line[1:])
    if not reports:
        status("dp has nothing installed here (no hook entries, no blocks).")
    for path in doomed:
        status(f"{'Would delete' if dry_run else 'Deleted'} {path}")


def _plugin_note(client: dict, dry_run: bool = False) -> str:
    """How the plugin left Claude Code itself: through ``claude plugin``, or the commands to run."""
    if client["ran"]:
        done = "would be removed" if dry_run else "removed"
        return f"; Claude Code's record of it {done} with: " + "; ".join(client["commands"])
    return "; claude is not on PATH, so also run: " + "; ".join(client["commands"])


def _kept_note(kept: list | None, dry_run: bool, directory: str) -> str:
    """The committed files of a project's plugin stay: git tracks them, they are the team's (--json lists them)."""
    if not kept:
        return ""
    stays = "would stay" if dry_run else "stay"
    return (f"; git tracks {len(kept)} of its file{'s' if len(kept) != 1 else ''}, so they {stays} (the team's: "
            f"git rm -r {directory} removes the plugin for everyone)")


def register(app: typer.Typer) -> None:
    app.command("uninstall", help=HELP,
                short_help="Remove dp's hook entries and blocks (--purge: also the store and its data).")(uninstall)
