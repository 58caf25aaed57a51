"""What leaves the machine: each captured event as its shape, and nothing else.

The local store keeps a failed call's redacted input and error; the team
database gets only the shape dp already groups by (tool, command word,
subcommand, flags, input keys, error class), what the tool's own message
suggested or rejected (``error_hint``, rebuilt as one line per hint so the
team's suggestions read it as they read a message), the Bash shapes that
worked next in the same session, and pseudonyms: a hash of the session (with
the machine) and of the repository (its ``origin`` URL, else its path). The
event's id is a hash of its local key, so the same event always has the same
id and an upload retried after any interruption is an upsert, never a copy.
"""

from __future__ import annotations

import hashlib
import json
import os
import re

from dp.desires import hints
from dp.desires.paths import shape_label
from dp.desires.suggest import FOLLOW_WINDOW
from dp.learn.pairs import same_intent
from dp.store import desires

THEN_KEPT = 2
_ORIGIN = re.compile(r'^\[remote "origin"\]\s*$(?P<body>(?:\n(?!\[).*)*)', re.MULTILINE)
_URL = re.compile(r"^\s*url\s*=\s*(\S.*?)\s*$", re.MULTILINE)


def digest(text: str, size: int = 16) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:size]


def event_id(row) -> str:
    """The stable id of a local event: its event key, else its row id and time."""
    row_id, event_key, *_rest, timestamp = row
    return digest(event_key or f"row:{row_id}:{timestamp}", 32)


def error_hint(error: str | None, flags: list[str]) -> str:
    """What the message suggested or rejected, as lines ``dp.desires.hints`` reads back; '' for none."""
    error = error or ""
    lines = []
    word = hints.suggested_word(error)
    if word:
        lines.append(f"The most similar command is {word}")
    rejected = hints.rejected_flag(error, flags)
    if rejected:
        lines.append(f"unknown option: {rejected}")
    suggested = hints.suggested_flag(error)
    if suggested:
        lines.append(f"did you mean {suggested}")
    return "\n".join(lines)


class Shaper:
    """Turns local rows into upload rows for one machine, remembering each directory's repository."""

    def __init__(self, local, machine: str):
        self.local, self.machine = local, machine
        self._repositories: dict[str, str] = {}

    def row(self, row) -> tuple:
        """The upload row (``dp.team.server.EVENT_COLUMNS``) of a local row (``desires.after``'s columns)."""
        (row_id, _key, outcome, tool, error, command, subcommand, flags, keys, klass, session, cwd,
         timestamp) = row
        then = self._then(row) if outcome == "failure" and tool == "Bash" and session else []
        return (self.machine, event_id(row), self.repository(cwd), digest(f"{self.machine}:{session}") if session else "",
                outcome, tool, command, subcommand, flags, keys, klass,
                error_hint(error, json.loads(flags)) if outcome == "failure" else "", json.dumps(then), timestamp)

    def _then(self, row) -> list:
        """What worked next that a suggestion could learn from: the first ``THEN_KEPT`` Bash shapes
        that succeeded after the failure in its session and do what it meant (``dp.learn``'s
        ``same_intent``, on shapes). Only those: the team's aggregates group by this list, so an
        unrelated command in between must not split a path into many groups."""
        row_id, session, timestamp = row[0], row[10], row[12]
        failed = label(row[3], row[5], row[6], json.loads(row[7]))
        kept = []
        for done, sub, flags in desires.bash_successes_after(self.local, session, timestamp, row_id, FOLLOW_WINDOW):
            shape = [done, sub, json.loads(flags)]
            if same_intent(failed, label("Bash", *shape)):
                kept.append(shape)
                if len(kept) == THEN_KEPT:
                    break
        return kept

    def repository(self, cwd: str) -> str:
        """The pseudonym of the repository ``cwd`` is in ('' outside one)."""
        if cwd not in self._repositories:
            self._repositories[cwd] = _repository(cwd)
        return self._repositories[cwd]


def label(tool: str, command: str, subcommand: str, flags: list, keys=()) -> str:
    """A shape as dp shows it (``git comit -m``), the text a team's suggestion reads as the command."""
    return shape_label({"tool_name": tool, "command": command, "subcommand": subcommand, "flags": flags,
                        "input_keys": list(keys)})


def _repository(cwd: str) -> str:
    from dp.layers.locate import repo_root

    root = repo_root(cwd) if cwd else None
    if root is None:
        return ""
    origin = origin_url(root)
    return digest(origin or os.path.realpath(root))


def origin_url(root: str) -> str:
    """The ``origin`` remote's URL from ``.git/config`` (read as data; '' when there is none)."""
    from dp.errors import DpError
    from dp.files import read_regular

    try:
        text = read_regular(os.path.join(root, ".git", "config"), 1 << 20).decode("utf-8", "replace")
    except (OSError, DpError):
        return ""
    section = _ORIGIN.search(text)
    url = _URL.search(section.group("body")) if section else None
    return url.group(1).removesuffix(".git").rstrip("/") if url else ""


EVENT_FIELDS = ("machine", "event_id", "repository", "session", "outcome", "tool_name", "command", "subcommand",
                "flags", "input_keys", "error_class", "error_hint", "then_shapes", "happened_at")


def summary(rows: list[tuple]) -> list[list]:
    """Upload rows counted by what they show: ``[count, outcome, tool, shape, class, hint]``, most first."""
    from dp.desires.paths import shape_label

    counts: dict[tuple, int] = {}
    for row in rows:
        item = dict(zip(EVENT_FIELDS, row))
        shape = {"tool_name": item["tool_name"], "command": item["command"], "subcommand": item["subcommand"],
                 "flags": json.loads(item["flags"]), "input_keys": json.loads(item["input_keys"])}
        key = (item["outcome"], item["tool_name"], shape_label(shape), item["error_class"],
               item["error_hint"].replace("\n", "; "))
        counts[key] = counts.get(key, 0) + 1
    return [[count, *key] for key, count in sorted(counts.items(), key=lambda pair: (-pair[1], pair[0]))]
