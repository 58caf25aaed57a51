"""Claude Code's "sync" role: what follows every rule change besides the hook entries.

The mod reads its aliases from a snapshot beside the store (``mod_snapshot``), and the client runs
its own copy of an installed plugin, whose hook entries (the ``if`` filters) change with the rules:
``dp.refresh.after_rule_change`` calls ``after_rule_change``, which rewrites both and updates the
installed plugin only when its files changed (``claude plugin`` is slow and a new plugin version).
"""

from __future__ import annotations

from pathlib import Path

from dp.agents.claude import mod_snapshot
from dp.agents.claude.marketplace import files, write_files
from dp.agents.claude.plugin import client_steps, run_steps, sync_options
from dp.agents.settings import settings_path
from dp.errors import DpError
from dp.store import installs


def after_rule_change(db_path: Path) -> list[dict]:
    """After every rule change (``dp.refresh.after_rule_change``): the mod's alias snapshot, and every
    installed dp plugin, in line with the rules."""
    try:
        snapshot = mod_snapshot.write(db_path)
    except DpError as exc:
        return [{"settings": str(mod_snapshot.state_dir(db_path)), "status": "error", "error": exc.message}]
    return sync(db_path, snapshot["aliases"])


def sync(db_path: Path, aliases: list[dict]) -> list[dict]:
    """After a rule change: every recorded plugin's files, its installed copy when they changed, and
    the mod's tool list. One report per plugin that changed or failed."""
    reports = []
    for entry in installs.read(db_path, installs.PLUGIN):
        directory, scope = Path(entry.path), entry.scope
        try:
            sync_options(settings_path("user"), scope, mod_snapshot.target_tools(aliases))
            if scope != "user" or not directory.is_dir():
                continue  # a project's plugin holds no rules of its own
            details = entry.details
            wanted = files(scope, db_path, details.get("permission", "none"), details.get("mode", "rewrite"),
                           bool(details.get("capture", True)))
            if write_files(directory, wanted):
                client = run_steps(client_steps(scope, directory)[1:], directory)
                reports.append({"settings": str(directory), "scope": scope, "status": "updated", "client": client})
        except DpError as exc:
            reports.append({"settings": str(directory), "status": "error", "error": exc.message})
    return reports
