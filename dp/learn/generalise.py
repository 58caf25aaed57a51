"""From fail→fix pairs to dp's rule kinds, kept only when they recur across sessions.

One pair says what one agent did once; a peer learning raw pairs saw 1 in 44
recur. So each pair is first read as the smallest change that turned the
failed call into the fix — the words that differ, where they sit — and that
change is named by kind:

* **command** — the command word alone changed, to a bare name, after
  ``command not found`` (``python`` → ``python3``); or, between two programs
  dp has a translation table for, the call translated through it
  (``rg -n x src`` → ``grep -rn x src``, ``dp.learn.tables``);
* **path** — the same, to a path (``mvn`` → ``./mvnw``): a program of one
  repository, never a PATH rename, so it answers only in that repository;
* **literal** — the same characters with spaces moved (``find.`` → ``find .``);
* **recipe** — the words a command starts with replaced by others
  (``pip install`` → ``uv pip install``);
* **flag** — one option of the same command replaced by another.

A change becomes an answer only when it comes from failures of the classes
these kinds mend (a missing program, an unknown option or subcommand),
brings no program the failed call did not run (``dp.learn.carry``: no
downloader, no pipe into a shell, no new program in front), and was seen in
at least ``MIN_SESSIONS`` sessions, and no other change of the same words was
seen about as often. Everything else stays evidence. An answer carries the
repositories it was seen in (``scope``): any answer but a plain rename acts
only there.
"""

from __future__ import annotations

from difflib import SequenceMatcher

from dp.learn.answer import COMMAND, FLAG, LITERAL, PATH, RECIPE, canonical, command_starts, repository, words
from dp.learn.carry import carried, plain_rename
from dp.learn.tables import same_search, table_pair, translated

MIN_SESSIONS = 2
MAX_EXAMPLES = 3
MAX_SCOPE = 64  # repositories an answer acts in
MENDABLE = {
    COMMAND: ("command not found",),
    PATH: ("command not found", "no such file"),
    LITERAL: ("command not found",),
    RECIPE: ("command not found", "unknown subcommand", "unknown option"),
    FLAG: ("unknown option", "unknown subcommand"),
}


def change(failed: str, fixed: str) -> tuple[str, str, str, str] | None:
    """(kind, command word, from words, to words) of the one change from ``failed`` to ``fixed``, or None.
    A fix that also put the options in another order or spelled a path another way (``./src/`` for
    ``src``) made the same change (``dp.learn.answer.canonical``)."""
    old, new = words(failed), words(fixed)
    if not old or not new:
        return None
    through_table = _through_table(failed, fixed, old, new)
    if through_table is not None:
        return through_table
    return _one_change(old, new) or _one_change(canonical(old), canonical(new))


def _one_change(old: list[str], new: list[str]):
    opcodes = [op for op in SequenceMatcher(None, old, new, autojunk=False).get_opcodes() if op[0] != "equal"]
    if len(opcodes) != 1:
        return None
    tag, i1, i2, j1, j2 = opcodes[0]
    starts = command_starts(old)
    if i1 in starts:
        if i2 > i1 and j2 > j1 and table_pair(old[i1], new[j1]):
            return None  # two programs with a table between them: only the table says how (above)
        return _at_start(old, new, i1, i2, j1, j2)
    if tag == "replace" and i2 - i1 == 1 and j2 - j1 == 1 and old[i1].startswith("-") and new[j1].startswith("-"):
        owner = max((s for s in starts if s < i1), default=None)
        return (FLAG, old[owner], old[i1], new[j1]) if owner is not None else None
    return None


def _through_table(failed: str, fixed: str, old: list[str], new: list[str]):
    """(command, program, program, its replacement) when the fix is ``failed`` translated through a table
    dp ships (``rg -n x src`` → ``grep -rn x src``), else None."""
    programs = {old[i] for i in command_starts(old)}
    for j in command_starts(new):
        target = new[j]
        for source in programs - {target}:
            if "/" in source or "/" in target or not table_pair(source, target):
                continue
            translation = translated(failed, source, target)
            if translation is not None and same_search(translation, fixed, target):
                return COMMAND, source, source, target
    return None


def _at_start(old, new, i1, i2, j1, j2):
    before, after = old[i1:i2] or old[i1 : i1 + 1], new[j1:j2] if i2 > i1 else new[j1 : j2 + 1]
    if not before or not after:
        return None
    word = before[0]
    if "".join(before) == "".join(after):
        return LITERAL, word, " ".join(before), " ".join(after)
    if len(before) == 1 and len(after) == 1:
        if "/" in after[0] and "/" not in word:
            return PATH, word, word, after[0]
        if "/" not in after[0] and "/" not in word:
            return COMMAND, word, word, after[0]
        return None
    return RECIPE, word, " ".join(before), " ".join(after)


class Generalised:
    """One change seen in several pairs: the learned answer, with its evidence."""

    def __init__(self, kind, command, from_text, to_text):
        self.kind, self.command, self.from_text, self.to_text = kind, command, from_text, to_text
        self.pairs: list = []
        self.acts_in: set | None = None  # the repositories it acts in, when not every one it was seen in

    @property
    def plain(self) -> bool:
        """A plain rename (``dp.learn.carry.plain_rename``): it acts in every repository."""
        return plain_rename({"kind": self.kind, "from_text": self.from_text, "to_text": self.to_text})

    @property
    def sessions(self) -> set:
        return {pair.session for pair in self.pairs}

    def evidence(self) -> dict:
        classes = sorted({pair.error_class for pair in self.pairs})
        return {
            "error_classes": classes,
            "repositories": sorted({pair.cwd for pair in self.pairs if pair.cwd})[:20],
            "examples": [{"failed": p.failed[:300], "error": p.error, "then": p.fixed[:300],
                          "calls_later": p.distance, "session": p.session[:80]} for p in self.pairs[-MAX_EXAMPLES:]],
        }

    def by_repository(self) -> dict[str, set]:
        """Each repository the change was seen in (``dp.learn.answer.repository``) → its sessions there."""
        by_directory: dict[str, set] = {}
        for pair in self.pairs:
            by_directory.setdefault(pair.cwd, set()).add(pair.session)
        sessions: dict[str, set] = {}
        for directory, seen in by_directory.items():
            where = repository(directory)
            if where is not None:
                sessions.setdefault(where, set()).update(seen)
        return sessions

    def scope(self) -> dict:
        """Each repository it acts in → in how many sessions it was seen there: where an answer other than
        a plain rename acts, and what it says there."""
        sessions = {where: seen for where, seen in self.by_repository().items()
                    if self.acts_in is None or where in self.acts_in}
        ranked = sorted(sessions.items(), key=lambda item: (-len(item[1]), item[0]))[:MAX_SCOPE]
        return {where: len(seen) for where, seen in ranked}

    def to_answer(self, learned_at: str) -> dict:
        return {"tool_name": "Bash", "command": self.command, "kind": self.kind, "from_text": self.from_text,
                "to_text": self.to_text, "pairs": len(self.pairs), "sessions": len(self.sessions),
                "evidence": self.evidence(), "learned_at": learned_at, "scope": self.scope()}


def generalise(pairs, min_sessions: int = MIN_SESSIONS) -> tuple[list[Generalised], list]:
    """(the changes that recur across ``min_sessions`` sessions, the pairs that stay evidence only)."""
    groups: dict[tuple, Generalised] = {}
    loose = []
    for pair in pairs:
        found = change(pair.failed, pair.fixed)
        if found is None or pair.error_class not in MENDABLE[found[0]] or carried(*found):
            loose.append(pair)
            continue
        groups.setdefault(found, Generalised(*found)).pairs.append(pair)
    by_from: dict[tuple, list[Generalised]] = {}
    for item in groups.values():
        by_from.setdefault((item.kind, item.command, item.from_text), []).append(item)
    kept = []
    for rivals in by_from.values():
        chosen = _chosen(rivals, min_sessions)
        kept += chosen
        loose += [pair for item in rivals if item not in chosen for pair in item.pairs]
    kept.sort(key=lambda item: (-len(item.sessions), -len(item.pairs), item.command))
    return kept, loose


def _chosen(rivals: list[Generalised], min_sessions: int) -> list[Generalised]:
    """The fixes of one failure (``rivals``) that become answers. The one seen in most sessions, when in
    ``min_sessions`` at least and twice as many as any other; and, as an answer that acts only where it was
    learned is decided there, any other that leads so among the sessions of one repository (two sessions
    there suffice), acting in the repositories it leads in. An answer acts in no repository where another
    leads."""
    rivals.sort(key=lambda item: -len(item.sessions))
    best, runner_up = rivals[0], len(rivals[1].sessions) if len(rivals) > 1 else 0
    winner = best if len(best.sessions) >= min_sessions and len(best.sessions) >= 2 * runner_up else None
    local = _local_winners(rivals, min_sessions)
    chosen = []
    for item in rivals:
        if item.plain:
            if item is winner:
                chosen.append(item)
            continue
        leads = {where for where, leader in local.items() if leader is item}
        if item is winner:
            leads |= {where for where in item.by_repository() if where not in local}
        if leads:
            item.acts_in = leads
            chosen.append(item)
    return chosen


def _local_winners(rivals: list[Generalised], min_sessions: int) -> dict:
    """Each repository → the rival that leads there: seen in ``min_sessions`` of its sessions at least,
    and in twice as many as any other rival there."""
    counts: dict[str, list] = {}
    for item in rivals:
        for where, seen in item.by_repository().items():
            counts.setdefault(where, []).append((len(seen), item))
    leaders = {}
    for where, ranked in counts.items():
        ranked.sort(key=lambda entry: -entry[0])
        second = ranked[1][0] if len(ranked) > 1 else 0
        if ranked[0][0] >= min_sessions and ranked[0][0] >= 2 * second:
            leaders[where] = ranked[0][1]
    return leaders
