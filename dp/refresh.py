"""``main([STORE])``: bring dp's hook entries in line with the rules and trusted project files;
``main([STORE, "--gate"])``: only the hook's gate beside the store (dp.hook.gate).

The SessionStart answer runs this (``dp.hook.session._refresh_filters``, in an isolated
Python started in ``/``: ``dp.hook.session.own_python``) when a trusted
project file changed since the last sync (``dp.layers.synced``), or, with
``--gate``, when only the gate is missing or stale (a dp that never wrote one,
a rule change whose sync never ran): the hook cannot import ``dp.install``
(which imports the hook), and the per-call path never pays for it. Exits 0
whatever happens: a failed sync is retried at the next SessionStart, and
``dp doctor`` reports entries out of line.
"""

from __future__ import annotations

import sys
from pathlib import Path


def after_rule_change(db_path: Path) -> list[dict]:
    """Everything derived from the rules brought in line: the gate and dp's hook entries
    (``dp.install.hook.sync_installed``) with what each agent keeps beside them (its ``sync`` role: Claude
    Code's mod snapshot and plugin). This module sits above the agents' upper roles, so it may look them
    up, and hands them to dp.install, which builds on nothing above it. One report per file changed or failed."""
    from dp.install.hook import sync_installed

    return sync_installed(db_path, parts=agents_sync)


def agents_sync(db_path: Path) -> list[dict]:
    """What each agent keeps beside its hook entries in line with the rules (its ``sync`` role)."""
    from dp.agents import with_role

    changes = []
    for agent in with_role("sync"):
        changes += agent.role("sync").after_rule_change(db_path)
    return changes


def main(argv: list[str]) -> int:
    from dp.errors import DpError

    if len(argv) == 2 and argv[1] == "--gate":
        from dp.hook import gate

        gate.write(Path(argv[0]))
        return 0
    if len(argv) != 1:
        return 0
    try:
        after_rule_change(Path(argv[0]))
    except (DpError, OSError):
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
