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
    costs the call its answer. A rewrite another pave-check of the same call answered first is noted
    once and marked ``told`` (``_first_to_tell``): its agent leaves the words to the model out."""
    if decision.kind == "rewrite" and not _first_to_tell(options, event):
        decision.told = True
        return decision
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


# Beside the store: one empty file per call a rewrite was told for (``_first_to_tell``), pruned by age.
TOLD = "told"
TOLD_KEEP_SECONDS = 3600
_TOLD_PRUNE_EVERY = 64


def _first_to_tell(options, event) -> bool:
    """Whether this process is the first of the call's pave-checks to answer its rewrite.

    Claude Code without mods starts one handler per ``if`` condition a command matches, and every
    one of them for a command it cannot analyze (``dp/agents/claude/filters.py``): 2.1.240 showed
    the model "dp: oldtool → newtool" 33 times for one ``for`` loop. All of them give the same
    rewrite; the first to claim the call (a file made with ``O_EXCL``, named after its session and
    call id) also gives its note. Without a call id, or where the claim cannot be made, each tells
    (fail open: a note twice, never none)."""
    if not getattr(event.agent, "many_handlers_per_call", False) or not event.call_id or not event.session:
        return True
    try:
        folder = os.path.join(os.path.dirname(os.path.abspath(db_location(options.db))), TOLD)
        os.makedirs(folder, mode=0o700, exist_ok=True)
        name = "-".join(_safe(part) for part in (event.session, str(event.call_id), event.hook))
    except OSError:  # no folder for the claims (a file in its place): each tells
        return True
    try:
        os.close(os.open(os.path.join(folder, name), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        return False
    except OSError:
        return True
    if int(time.time() * 1000) % _TOLD_PRUNE_EVERY == 0:
        _prune(folder)
    return True


def _safe(part: str) -> str:
    """A payload's id as part of a file name: letters, digits, ``-`` and ``_`` kept, at most 80 of them."""
    return "".join(char if char.isascii() and (char.isalnum() or char in "-_") else "_" for char in part[:80])


def _prune(folder: str) -> None:
    """Forget the calls told more than ``TOLD_KEEP_SECONDS`` ago (no agent asks about a call that late)."""
    cutoff = time.time() - TOLD_KEEP_SECONDS
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.stat().st_mtime < cutoff:
                    os.unlink(entry.path)
    except OSError:
        pass
