"""What changed in a repository's rule file since the person trusted it, as a diff of its rules in words.

A teammate's change to ``.dp/rules.toml`` reaches everyone with their next pull, and stops the whole
file acting for each of them until they trust it again (its SHA-256 no longer matches the record,
``dp.store.trust``). Reading the whole file again every week to find the one rule that changed is
what makes people stop reading: ``dp trust --show`` shows what was added, removed and changed since.

The trust record already names the bytes trusted by their SHA-256, so ``dp trust`` keeps a copy of
those bytes beside the store under that name (``trusted/<sha256>``): no migration, no second record
to keep in step, and a copy whose bytes no longer hash to its name is not read (the whole file is
shown then, as it is for a record made before dp kept copies). Copies no record names are deleted
when trust changes (``prune``). The copy is the repository's data, never run: it is only parsed.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

DIRECTORY = "trusted"


def _copies(db_path) -> Path:
    return Path(db_path).parent / DIRECTORY


def refresh(db_path, conn, files) -> None:
    """After trust changed in the store ``conn``: keep a copy of each trusted file (``files``: ``(real path,
    sha256)``) and drop the copies no record names any more. Nothing in a dry run (``dp.files.Rehearsal``):
    the copies are dp's own record, not a change the plan shows."""
    from dp.files import rehearsing
    from dp.store.trust import recorded_hashes

    if rehearsing() is not None:
        return

    for path, sha256 in files:
        keep(db_path, path, sha256)
    prune(db_path, recorded_hashes(conn))


def keep(db_path, path: str, sha256: str) -> None:
    """Keep a copy of the file at ``path`` as trusted, if it still reads as ``sha256`` (a file that changed
    between the read and now is not copied: --show then shows it whole)."""
    from dp.errors import DpError
    from dp.files import make_directory, read_regular, write_atomically
    from dp.layers.locate import MAX_BYTES

    try:
        data = read_regular(path, MAX_BYTES)
    except (OSError, DpError):
        return
    if hashlib.sha256(data).hexdigest() != sha256:
        return
    directory = _copies(db_path)
    if not directory.is_dir():
        make_directory(directory)
    write_atomically(directory / sha256, data)


def trusted_rules(db_path, sha256: str) -> list | None:
    """The rules of the file as it was trusted (its copy named ``sha256``); None without a good copy."""
    from dp.errors import DpError
    from dp.files import read_regular
    from dp.layers.locate import MAX_BYTES
    from dp.layers.projectfile import parse

    try:
        data = read_regular(_copies(db_path) / sha256, MAX_BYTES)
    except (OSError, DpError):
        return None
    if hashlib.sha256(data).hexdigest() != sha256:
        return None
    try:
        return parse(data)
    except DpError:
        return None


def prune(db_path, named) -> None:
    """Delete the copies no trust record names any more (``named``: every SHA-256 recorded)."""
    directory = _copies(db_path)
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for name in names:
        if name not in named and len(name) == 64:
            try:
                os.unlink(directory / name)
            except OSError:
                pass


def changes(before: list, after: list, line_words) -> list[str]:
    """The rules added (``+``), changed (``~``, with what it was) and removed (``-``) from ``before`` to
    ``after``, each in ``line_words(rule)``; then how many are the same. A rule is the same rule when its
    key is (kind, command or tool and parameter, what it matches): a new target or message is a change."""
    was = {rule.key: rule for rule in before}
    now = {rule.key: rule for rule in after}
    lines, same = [], 0
    for rule in after:
        old = was.get(rule.key)
        if old is None:
            lines.append(f"+ line {rule.line}: {line_words(rule)}")
        elif (old.to_name, old.message) != (rule.to_name, rule.message):
            lines.append(f"~ line {rule.line}: {line_words(rule)} (was: {line_words(old)})")
        else:
            same += 1
    lines += [f"- {line_words(rule)}" for rule in before if rule.key not in now]
    if not lines:
        lines.append("its rules are the ones you trusted (only comments or layout changed)")
    if same:
        lines.append(f"{same} rule{'s' if same != 1 else ''} unchanged")
    return lines
