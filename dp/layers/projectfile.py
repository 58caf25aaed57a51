"""Reading one project rule file: parsed, validated, hashed once, then cached by its stat.

The file is the collection format ``dp aliases export`` writes, so an export
can be committed as is, and every entry passes the store's own validation
(``dp.rules.collection``): the same refusals, worded the same, plus the line
of the entry's ``[[aliases]]`` header. A file that fails validation as a
whole is one problem for its layer: the layer is inert (fails open) and the
user's rules still apply.

The hook cannot afford to re-read and re-parse the file on every call, so
the outcome — the SHA-256 of the exact bytes (what trust is checked
against), the rules with their compiled recipe programs, or the problem — is
kept in dp's cache (``dp.cachedir``), stamped with the file's path, size,
mtime, ctime, inode and device. Any write to the file changes its ctime, so
a hit is the content the hash was taken of; a miss (the first call after a
change) pays for the read, the hash, the TOML parse and any recipe compile.
"""

import marshal  # loaded with the interpreter: importlib reads every .pyc with it
import os
import stat
from operator import itemgetter

from dp.rules import FIELDS, KEY_FIELDS, RECIPE

# A project file over this size is refused as a whole (its layer is inert).
MAX_BYTES = 1 << 20
_CACHE_PREFIX = "project-rules"
_CACHE_VERSION = "3"


# A cached row's key (``KEY_FIELDS``): a row is ``FIELDS`` values, then the program and the line.
_ROW_KEY = itemgetter(*(FIELDS.index(name) for name in KEY_FIELDS))
_TOOL, _COMMAND = FIELDS.index("tool"), FIELDS.index("command")


class ProjectFile:
    """One layer file as read: ``rules`` (each with ``source`` and ``line``) or a ``problem``.

    Read from the cache, a file keeps its rows packed and makes a ``Rule`` of one only when it is
    asked for: the hook needs the few rules about the call's tool and words (``for_call``,
    ``tool_aliases``), and building all of a 200-rule file's took it half a millisecond a call.
    The cache also keeps where each tool's rows for each command are (``_index``), so a call
    looks at those rows only: checking all 200 on every call cost it as much as a module import.
    And it keeps which (tool, command) pairs have rows (``keys``, one string) beside the packed
    rows and index, so a call no row concerns (most calls) finds that out with a substring search
    and never unpacks them: unpacking a 200-rule file's cost it 0.1 ms.
    """

    __slots__ = ("source", "path", "real", "sha256", "problem", "_keys", "_packed", "_rows", "_index", "_rules")

    def __init__(self, source: str, path: str, real: str = "", sha256: str = "", rules=(), problem: str = "",
                 keys: str = "", packed: bytes = b""):
        self.source, self.path, self.real, self.sha256 = source, path, real or path, sha256
        self.problem, self._keys, self._packed = problem, keys, packed
        self._rows = self._index = None
        self._rules = None if packed else list(rules)

    @property
    def rules(self) -> list:
        """Every rule of the file, in file order."""
        if self._rules is None:
            self._rules = [_rule(row, self.source) for row in self._unpacked()[0]]
        return self._rules

    def for_call(self, tool: str, words) -> list:
        """The rules about ``tool``'s parameters and, for its commands, those about ``words``
        (None: every command), in file order: what the store's query returns for a call."""
        return self._select(lambda from_name, rule_tool, param, command, kind:
                            rule_tool == tool and (not command or words is None or command in words),
                            tool, None if words is None else {"", *words})

    def tool_aliases(self, name: str) -> list:
        """The tool-name aliases of ``name`` (a well-formed file has at most one), in file order."""
        return self._select(lambda from_name, tool, param, command, kind:
                            from_name == name and not (kind or tool or param or command), "", ("",))

    def _select(self, keep, tool: str, commands) -> list:
        """The rules whose key (``KEY_FIELDS``) ``keep`` takes, among the rows about ``tool`` and
        ``commands`` (None: all its commands); from the rows, only those are built."""
        if self._rules is not None:
            return [rule for rule in self._rules if keep(*rule.key)]
        if not _has_rows(self._keys, tool, commands):
            return []
        rows, index = self._unpacked()
        by_command = index.get(tool, {})
        lists = by_command.values() if commands is None else (by_command.get(command, ()) for command in commands)
        positions = sorted(position for positions in lists for position in positions)
        return [_rule(rows[position], self.source) for position in positions if keep(*_ROW_KEY(rows[position]))]

    def _unpacked(self) -> tuple:
        """``(rows, index)``, unpacked from the cache on first use."""
        if self._rows is None:
            self._rows, self._index = marshal.loads(self._packed)
        return self._rows, self._index


def _keys(rows) -> str:
    """The (tool, command) pairs of ``rows`` as one string: a line ``tool\0command`` each."""
    return "\n" + "".join(f"{row[_TOOL]}\0{row[_COMMAND]}\n" for row in rows)


def _has_rows(keys: str, tool: str, commands) -> bool:
    """Whether ``keys`` (``_keys``) names a row about ``tool`` and one of ``commands`` (None: any)."""
    if commands is None:
        return f"\n{tool}\0" in keys
    return any(f"\n{tool}\0{command}\n" in keys for command in commands)


def load(source: str, path: str, info) -> ProjectFile:
    """The file at ``path`` whose ``stat`` (or stat error) is ``info``; never raises for bad content."""
    if isinstance(info, BaseException):
        return ProjectFile(source, path, problem=f"cannot read it: {getattr(info, 'strerror', None) or info}")
    if not stat.S_ISREG(info.st_mode):
        from dp.files import kind_of

        return ProjectFile(source, path, problem=f"it is {kind_of(info.st_mode)}, not a file")
    if info.st_size > MAX_BYTES:
        return ProjectFile(source, path, problem=f"it is {info.st_size} bytes; a project rules file may hold at most "
                                                 f"{MAX_BYTES} bytes (split it, or keep some rules in your own store)")
    from dp.cachedir import read_stamped, write_stamped

    stamp = "\0".join(map(str, (_CACHE_VERSION, path, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino,
                                info.st_dev)))
    cached = read_stamped(_CACHE_PREFIX, stamp)
    if cached is None:
        cached = _read(path)
        write_stamped(_CACHE_PREFIX, stamp, cached)
    real, sha256, problem, keys, packed = cached
    return ProjectFile(source, path, real, sha256, problem=problem, keys=keys, packed=packed)


def _rule(row, source: str):
    """The ``Rule`` of a cached row (the class loads with the first one a call needs)."""
    from dp.rules.model import Rule

    rule = Rule(*row[: len(FIELDS)])
    rule.program, rule.line, rule.source = row[len(FIELDS)], row[len(FIELDS) + 1], source
    return rule


def _read(path: str) -> tuple:
    """``(real path, sha256, problem, keys, packed rows and index)`` for the cache (``ProjectFile``)."""
    import hashlib

    from dp.errors import DpError
    from dp.files import read_regular

    real = os.path.realpath(path)
    try:
        data = read_regular(path, MAX_BYTES)
    except (OSError, DpError) as exc:
        return real, "", f"cannot read it: {getattr(exc, 'message', None) or exc}", *_packed([])
    digest = hashlib.sha256(data).hexdigest()
    try:
        rules = parse(data)
    except DpError as exc:
        return real, digest, exc.message, *_packed([])
    rows = [(*(getattr(rule, name) for name in FIELDS), _program(rule), rule.line) for rule in rules]
    return real, digest, "", *_packed(rows)


def _packed(rows) -> tuple:
    """``(keys, packed)`` of ``rows``: what ``ProjectFile`` reads from the cache."""
    return _keys(rows), marshal.dumps((rows, _index(rows)))


def _index(rows) -> dict:
    """``{tool: {command: [position, …]}}`` of ``rows``, positions in file order."""
    index: dict = {}
    for position, row in enumerate(rows):
        index.setdefault(row[_TOOL], {}).setdefault(row[_COMMAND], []).append(position)
    return index


def parse(data: bytes) -> list:
    """The rules in a project file's bytes, each with its ``line``; DpError naming the line of what is wrong."""
    from dp.errors import DpError
    from dp.layers.tomlscan import entry_blocks
    from dp.rules import collection

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise DpError(f"line {line}: not UTF-8 text") from None
    lines = text.splitlines(keepends=True)
    headers = [first + 1 for first, _, _ in entry_blocks(lines)]
    try:
        rules = collection.parse(text, "toml")
    except collection.EntryError as exc:
        where = f"line {headers[exc.index - 1]}: " if len(headers) >= exc.index else ""
        raise DpError(f"{where}entry {exc.index}: {exc.reason}") from None
    except DpError as exc:
        raise DpError(exc.message.replace("; nothing was imported", "")) from None
    numbered = len(headers) == len(rules)
    seen = {}
    for index, rule in enumerate(rules):
        rule.line = headers[index] if numbered else 0
        first = seen.setdefault(rule.key, rule)
        if first is not rule:
            raise DpError(f"line {rule.line}: entry {index + 1} is the same rule as line {first.line} "
                          "(same kind, command and from); keep one of them")
    return rules


def _program(rule) -> str:
    """A recipe's compiled program (what the store keeps beside a recipe rule), '' when Jinja2 must render it."""
    if rule.match_kind != RECIPE:
        return ""
    from dp.rules.recipe import program_for

    try:
        return program_for(rule.to_name) or ""
    except Exception:  # noqa: BLE001 - a template the compiler cannot take is rendered by Jinja2
        return ""
