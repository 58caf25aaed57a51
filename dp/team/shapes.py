"""What leaves the machine: each captured event as its shape, and nothing else.

The local store keeps a failed call's redacted input and error; the team
database gets only the shape dp already groups by (tool, command word,
subcommand, option names, input keys, error class), what the tool's own
message suggested or rejected (``error_hint``: lines from a fixed vocabulary,
``dp.desires.hints.shape_hints``, never the message's text), the Bash shapes
that worked next in the same session, and pseudonyms: a hash of the session
(with the machine) and of the repository (its ``origin`` URL, else its path).
The event's id is a hash of its local key, so the same event always has the
same id and an upload retried after any interruption is an upsert, never a copy.

Only shapes, by construction: an upload row is built field by field from
``UPLOAD_FIELDS``, an allowlist where each field has the one check its value
must pass (a name, a hash, a time, a list of option names …); no other field
exists, and a row with a value that fails its check is not sent. An option is
uploaded as its name alone (``dp.shell.shape.option_name``: ``-p``, never
``-pSECRET``). ``dp team sync --dry-run`` prints these rows.
"""

from __future__ import annotations

import hashlib
import json
import os
import re

from dp.capture.events import ERROR_CLASSES
from dp.desires import hints
from dp.desires.paths import shape_label
from dp.desires.suggest import FOLLOW_WINDOW
from dp.learn.pairs import same_intent
from dp.shell.shape import option_name
from dp.shell.wrappers import RUNNERS
from dp.store import desires

THEN_KEPT = 2
MAX_NAMES = 32
_ORIGIN = re.compile(r'^\[remote "origin"\]\s*$(?P<body>(?:\n(?!\[).*)*)', re.MULTILINE)
_URL = re.compile(r"^\s*url\s*=\s*(\S.*?)\s*$", re.MULTILINE)
HEX = re.compile(r"[0-9a-f]{16,64}")
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,6})?Z")
_PROGRAM = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.:+@%-]{0,199}")  # a command word or a tool's name
_SUBCOMMAND = re.compile(r"[A-Za-z][A-Za-z0-9_:-]{0,39}")
_OPTION = re.compile(r"--?[A-Za-z0-9][A-Za-z0-9_-]{0,39}")
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]{0,63}")
_HINT = re.compile("|".join(re.escape(line).replace(r"\{\}", name) for line, name in (
    (hints.SUGGESTED_COMMAND, "[a-z][a-z0-9-]{0,39}"), (hints.REJECTED_OPTION, _OPTION.pattern),
    (hints.SUGGESTED_OPTION, _OPTION.pattern))))
_CLASSES = frozenset(["error", ""] + [name for name, _ in ERROR_CLASSES])


def digest(text: str, size: int = 16) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:size]


def event_id(row) -> str:
    """The stable id of a local event: its event key, else its row id and time."""
    row_id, event_key, *_rest, timestamp = row
    return digest(event_key or f"row:{row_id}:{timestamp}", 32)


def error_hint(error: str | None, command: str, subcommand: str, flags: list[str]) -> str:
    """What the message suggested or rejected, as lines ``dp.desires.hints`` reads back; '' for none."""
    return "\n".join(hints.shape_hints(error or "", command, subcommand, flags))


def option_names(command: str, flags) -> list[str]:
    """The names of a shape's options as they leave the machine (``-rP`` → ``-r``, ``-pSECRET`` → ``-p``)."""
    names = []
    for flag in flags if isinstance(flags, list) else []:
        name = option_name(command, flag) if isinstance(flag, str) else ""
        if name and name not in names:
            names.append(name)
    return names


def _pick(pattern: re.Pattern, value) -> str:
    return value if isinstance(value, str) and pattern.fullmatch(value) else ""


def _kept(pattern: re.Pattern, items) -> list[str] | None:
    """The names among ``items`` (a list) that are names; None when ``items`` is no list."""
    if not isinstance(items, list):
        return None
    return [item for item in items if isinstance(item, str) and pattern.fullmatch(item)][:MAX_NAMES]


def _names(pattern: re.Pattern, text) -> str | None:
    kept = _kept(pattern, json.loads(text) if isinstance(text, str) else None)
    return None if kept is None else json.dumps(kept)


def _then(text) -> str | None:
    items = json.loads(text) if isinstance(text, str) else None
    if not isinstance(items, list):
        return None
    kept = [[command_word(item[0]), _pick(_SUBCOMMAND, item[1]), _kept(_OPTION, item[2])]
            for item in items if isinstance(item, list) and len(item) == 3 and isinstance(item[2], list)]
    return json.dumps([item for item in kept if item[0]][:THEN_KEPT])


def command_word(value) -> str:
    """A command word, or a runner and the program it runs (``npx tsc``, ``uv run pytest``:
    ``dp.shell.shape``); '' for anything else."""
    if not isinstance(value, str):
        return ""
    *runner, program = value.split(" ")
    return value if (not runner or tuple(runner) in RUNNERS) and _PROGRAM.fullmatch(program) else ""


def required(pattern: re.Pattern):
    return lambda value: value if isinstance(value, str) and pattern.fullmatch(value) else None


def optional(pattern: re.Pattern):
    return lambda value: value if value == "" or isinstance(value, str) and pattern.fullmatch(value) else None


# Every field an upload row has, in the server's column order, with the check its value must pass:
# the value as sent, '' for a name that is not one (a command word that is no program's name), or
# None, and the row is not sent at all. Nothing outside this table can be uploaded.
UPLOAD_FIELDS = {
    "machine": required(HEX),
    "event_id": required(HEX),
    "repository": optional(HEX),
    "session": optional(HEX),
    "outcome": lambda value: value if value in ("failure", "success") else None,
    "tool_name": required(_PROGRAM),
    "command": command_word,
    "subcommand": lambda value: _pick(_SUBCOMMAND, value),
    "flags": lambda value: _names(_OPTION, value),
    "input_keys": lambda value: _names(_KEY, value),
    "error_class": lambda value: value if value in _CLASSES else "error",
    "error_hint": lambda value: "\n".join(line for line in str(value).split("\n") if _HINT.fullmatch(line)),
    "then_shapes": _then,
    "happened_at": required(TIME),
}
EVENT_FIELDS = tuple(UPLOAD_FIELDS)


def upload_row(values: dict) -> tuple | None:
    """The upload row of ``values`` (exactly the fields of ``UPLOAD_FIELDS``), each field as its
    check leaves it; None when one fails (the row is not sent)."""
    if set(values) != set(UPLOAD_FIELDS):
        raise ValueError(f"an upload row has exactly the fields {', '.join(EVENT_FIELDS)}")
    row = tuple(check(values[field]) for field, check in UPLOAD_FIELDS.items())
    return None if None in row else row


class Shaper:
    """Turns local rows into upload rows for one machine, remembering each directory's repository."""

    def __init__(self, local, machine: str):
        self.local, self.machine = local, machine
        self._repositories: dict[str, str] = {}
        self._intents: dict[tuple[str, str], bool] = {}  # same_intent of two labels, asked once per sync

    def row(self, row) -> tuple | None:
        """The upload row (``EVENT_FIELDS``) of a local row (``desires.after``'s columns); None when
        a field fails its check (``upload_row``)."""
        (row_id, _key, outcome, tool, error, command, subcommand, flags, keys, klass, session, cwd,
         timestamp) = row
        names = option_names(command, json.loads(flags))
        then = self._then(row) if outcome == "failure" and tool == "Bash" and session else []
        return upload_row({
            "machine": self.machine, "event_id": event_id(row), "repository": self.repository(cwd),
            "session": digest(f"{self.machine}:{session}") if session else "", "outcome": outcome,
            "tool_name": tool, "command": command, "subcommand": subcommand, "flags": json.dumps(names),
            "input_keys": keys, "error_class": klass,
            "error_hint": error_hint(error, command, subcommand, names) if outcome == "failure" else "",
            "then_shapes": json.dumps(then), "happened_at": timestamp})

    def _then(self, row) -> list:
        """What worked next that a suggestion could learn from: the first ``THEN_KEPT`` Bash shapes
        that succeeded after the failure in its session and do what it meant (``dp.learn``'s
        ``same_intent``, on shapes). Only those: the team's aggregates group by this list, so an
        unrelated command in between must not split a path into many groups."""
        row_id, session, timestamp = row[0], row[10], row[12]
        failed = label(row[3], row[5], row[6], option_names(row[5], json.loads(row[7])))
        kept = []
        for done, sub, flags in desires.bash_successes_after(self.local, session, timestamp, row_id, FOLLOW_WINDOW):
            shape = [done, sub, option_names(done, json.loads(flags))]
            pair = (failed, label("Bash", *shape))
            if pair not in self._intents:
                self._intents[pair] = same_intent(*pair)
            if self._intents[pair]:
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


def summary(rows: list[tuple]) -> list[list]:
    """Upload rows counted by what they show: ``[count, outcome, tool, shape, class, hint, then]``, most first."""
    counts: dict[tuple, int] = {}
    for row in rows:
        item = dict(zip(EVENT_FIELDS, row))
        key = (item["outcome"], item["tool_name"],
               label(item["tool_name"], item["command"], item["subcommand"], json.loads(item["flags"]),
                     json.loads(item["input_keys"])),
               item["error_class"], item["error_hint"].replace("\n", "; "),
               "; ".join(label("Bash", *shape) for shape in json.loads(item["then_shapes"])))
        counts[key] = counts.get(key, 0) + 1
    return [[count, *key] for key, count in sorted(counts.items(), key=lambda pair: (-pair[1], pair[0]))]
