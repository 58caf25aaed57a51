"""``dp doctor --fix``: repair what needs no decision of the person's, and say what changed.

Three things can be put right from what dp already knows: the store is missing (created empty, as
``dp init`` creates it), the hook's gate beside it is missing or stale (written again from the
store, as every rule change writes it), and hook entries run a dp program that is gone (pointed at
this dp's, ``dp.doctor.dangling``). Everything else doctor reports needs the person (a rule to
delete, a file to fix by hand) and keeps its own fix line.
"""

from __future__ import annotations

from pathlib import Path


def repair(db_path: Path, cwd: Path) -> list[str]:
    """Make the repairs; one line per change, in the order made ([] when nothing needed one)."""
    from dp.doctor.dangling import repoint

    return [*_store(db_path), *repoint(db_path, cwd), *_gate(db_path)]


def _store(db_path: Path) -> list[str]:
    from dp.install.init import ensure_store

    if Path(db_path).exists():
        return []
    ensure_store(Path(db_path))
    return [f"created the store {db_path} (empty: add rules with dp alias)"]


def _gate(db_path: Path) -> list[str]:
    from dp.hook import gate

    if not Path(db_path).exists():
        return []
    state = gate.state(db_path)
    if state == "fresh":
        return []
    gate.write(db_path)
    return [f"wrote the hook's gate beside the store again (it was {state})"]
