"""What pave-check did to a call, noted beside the store (issue 51): the spool ``dp.capture.actions`` moves
into the store. Imported only when dp acted on a call (a rewrite, an advice-only deny, a block) or a shadow
rule would have: a call dp leaves alone never loads it. Never SQLite: one appended line per call.
"""

from __future__ import annotations

import json
import os
import time

from dp.store.location import db_location

# Beside the store: pave-check appends one JSON line per call it acted on (dp.capture.actions moves them
# into the store). Past MAX_SPOOL_BYTES (thousands of actions no capture run took) it notes nothing more.
ACTIONS_SPOOL = "actions.jsonl"
MAX_SPOOL_BYTES = 1 << 20
_MAX_FIELD = 200
# The kind each decision is noted as (a rewrite's advice-only answer and a plain "nothing" are no action).
_ACTION_KINDS = {"rewrite": "rewrite", "deny": "advise", "block": "block"}


def blocked(alias) -> tuple:
    """The action of a tool-name alias that blocks a call."""
    return (f"{alias.from_name} → {alias.to_name}", getattr(alias, "source", "") or "user", alias.from_name,
            alias.to_name)


def noted(options, event, decision):
    """``decision``, after noting what dp did to the call (issue 51): one line appended to the spool
    beside the store, never SQLite, only when dp acted (a call dp leaves alone costs nothing here).
    The line holds rule descriptions and command words, no command text. Fails open: a note never
    costs the call its answer."""
    kind = _ACTION_KINDS.get(decision.kind)
    noted = [(kind, options.acted)] if kind is not None and options.acted else []
    if options.shadowed:
        noted.append(("shadow", options.shadowed))
    if not noted:
        return decision
    try:
        at = time.time()
        text = "".join(json.dumps({"at": at, "session": event.session[:_MAX_FIELD],
                                   "call": str(event.call_id or "")[:_MAX_FIELD],
                                   "agent": getattr(event.agent, "name", "") or "", "kind": kind,
                                   "cwd": event.cwd[:1024],
                                   "rules": [[str(part)[:_MAX_FIELD] for part in act] for act in acts[:8]]},
                                  ensure_ascii=False) + "\n" for kind, acts in noted)
        path = os.path.join(os.path.dirname(os.path.abspath(db_location(options.db))), ACTIONS_SPOOL)
        descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            if os.fstat(descriptor).st_size < MAX_SPOOL_BYTES:
                os.write(descriptor, text.encode("utf-8"))  # one small write: lines never interleave
        finally:
            os.close(descriptor)
    except Exception:  # noqa: BLE001 - the answer matters more than its note
        pass
    return decision
