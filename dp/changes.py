"""One announcement after every committed change to what the rules act on, and its followers.

A rule set or deleted, a collection imported, a shadow rule promoted, a repository
trusted or untrusted, paving switched on or off: each leaves things derived from
the rules behind it (the hook's gate beside the store, the agents' ``if``
filters, the Claude Code mod's snapshot, a plugin's copy). Where the change is
committed announces it here (a ``dp.store.write.Store`` that committed a transaction with
``rules=True``, once it is closed; ``dp.paving.report.set_switch``; ``dp.layers.edit`` for a
project file it keeps untrusted), and what must follow subscribes once
(``dp.cli.app.build_app`` subscribes the CLI's sync), so no command carries the
duty of calling a sync, and a new command that changes rules through the store
cannot forget it.

Stdlib only and below every package that announces: the store, paving and the
project layers all import it. A process that subscribes nothing (the hooks, a
program using dp's store as a library) announces to no one; the rules stamp
(``dp.store.write.mark_rules_changed``) still tells the gate it is stale.
"""

from __future__ import annotations

from pathlib import Path

_followers: list = []


def follow(callback) -> None:
    """Call ``callback(db_path)`` after every announced change (once, however often subscribed)."""
    if callback not in _followers:
        _followers.append(callback)


def announce(db_path) -> None:
    """The rules, trust or paving beside the store at ``db_path`` changed and the change is committed."""
    for callback in list(_followers):
        callback(Path(db_path))
