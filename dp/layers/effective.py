"""The rules in effect for a directory: the user's store, then the project's file, then the local one.

"Over" is per rule key (``Rule.key``, the store's primary key): a project
rule with the key of a user rule replaces it where it stood, and a local
rule replaces a project (or user) rule the same way; a rule with a new key
is added after the layer below it. So the apply order among a layer's own
rules is its file order, and a person's override never moves a rule.

A project file acts only while its content is the one the user trusted in
this repository (``dp.store.trust``, keyed by the repository's real root and
the file's real path); a file whose real path leaves its repository (a link
to another repository's trusted file) never acts, whatever was trusted where.
An untrusted, changed, outside or broken file is inert, and
``notices`` says so — once, with the command that fixes it — for ``dp
doctor``, ``dp aliases`` and the SessionStart context. Everything here is
agent-neutral: a hook for any agent asks ``project_layers(conn, cwd)`` and
gets the same answer.

Stdlib-only and cheap when there is nothing to find: the hook calls
``project_layers`` on every call that carries a working directory.

The hook cannot afford to re-read and re-parse a file on every call, so the
outcome (``dp.layers.projectfile``) — the SHA-256 of the exact bytes (what
trust is checked against), the rules with their compiled recipe programs, or
the problem — is kept in dp's cache (``dp.cachedir``), stamped with the
file's path, size, mtime, ctime, inode and device. Any write to the file
changes its ctime, so a hit is the content the hash was taken of; a miss
(the first call after a change) pays for the read, the hash, the TOML parse
and any recipe compile. The cached read lives here, with the trust check,
rather than in a module of its own: each module cost the hook about as much
as the whole read.
"""

import marshal  # loaded with the interpreter: importlib reads every .pyc with it
import os
import stat
from operator import itemgetter

from dp.layers.locate import LOCAL, MAX_BYTES, PROJECT, USER, layer_files
from dp.rules import FIELDS, KEY_FIELDS

TRUSTED = "trusted"
UNTRUSTED = "untrusted"
CHANGED = "changed"
BROKEN = "broken"
OUTSIDE = "outside"  # the file's real path leaves its repository: never acts, dp trust cannot change that


class Layer:
    """One project layer file and whether it acts (``state``)."""

    __slots__ = ("file", "state")

    def __init__(self, file, state: str):
        self.file, self.state = file, state

    @property
    def acts(self) -> bool:
        return self.state == TRUSTED

    def to_dict(self) -> dict:
        return {"source": self.file.source, "path": self.file.path, "state": self.state,
                "rules": len(self.file.rules), "problem": self.file.problem, "sha256": self.file.sha256}


class ProjectLayers:
    """The layer files of one repository (``root``, as walked to; ``real_root``, its real path),
    lowest first, and whether the user trusts the repository itself (``dp trust``)."""

    __slots__ = ("root", "layers", "real_root", "trusted")

    def __init__(self, root: str, layers: list, real_root: str = "", trusted: bool = False):
        self.root, self.layers = root, layers
        self.real_root, self.trusted = real_root or root, trusted

    def active_rules(self) -> list:
        """The rules of the layers that act, project before local."""
        return [rule for layer in self.layers if layer.acts for rule in layer.file.rules]

    def notices(self) -> list[str]:
        """One sentence per layer that does not act, naming the file and what to do."""
        return [notice(self.root, layer) for layer in self.layers if not layer.acts]


def project_layers(conn, directory: str, located=None) -> ProjectLayers | None:
    """The project layers for ``directory`` (absolute), trust checked against the store ``conn``
    (None: no store, nothing trusted); None when the directory's repository has no layer file.
    ``located``: what ``layer_files(directory)`` already returned, so the walk is not repeated."""
    root, found = located or layer_files(directory)
    if not found:
        return None
    from dp.layers.locate import real_location
    from dp.store.read import REPOSITORY, trust_records

    real_root = os.path.realpath(root)
    trusted = trust_records(conn, real_root)  # the one query: this repository's records
    layers = []
    for source, path, info in found:
        real, ours = real_location(real_root, path)
        if not ours:  # not even read: it is another repository's file
            layers.append(Layer(ProjectFile(source, path, real), OUTSIDE))
            continue
        file = load(source, path, info)
        file.real = real
        if file.problem:
            state = BROKEN
        else:
            recorded = trusted.get(real)
            state = TRUSTED if recorded == file.sha256 else UNTRUSTED if recorded is None else CHANGED
        layers.append(Layer(file, state))
    return ProjectLayers(root, layers, real_root, REPOSITORY in trusted)


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
    from dp.layers.projectfile import _program, parse

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


def merge(user_rules, project) -> list:
    """The rules in effect: ``user_rules`` with the acting project rules laid over them by key."""
    return overlay(user_rules, project.active_rules() if project is not None else [])


def overlay(rules, over) -> list:
    """``rules`` with each rule of ``over`` replacing the one with its key in place, or added after."""
    if not over:
        return list(rules)
    merged = list(rules)
    where = {rule.key: index for index, rule in enumerate(merged)}
    for rule in over:
        index = where.get(rule.key)
        if index is None:
            where[rule.key] = len(merged)
            merged.append(rule)
        else:
            merged[index] = rule
    return merged


def for_call(project, tool: str, words) -> list:
    """The acting project rules the hook's store query would return for this call: the tool's
    parameter rules and its command rules for ``words`` (None: every command)."""
    if project is None:
        return []
    return [rule for layer in project.layers if layer.acts for rule in layer.file.for_call(tool, words)]


def tool_alias(project, tool: str):
    """The acting project tool-name alias for ``tool`` (local over project), or None."""
    found = None
    for layer in project.layers if project is not None else ():
        aliases = layer.file.tool_aliases(tool) if layer.acts else []
        if aliases:
            found = aliases[-1]
    return found


def notice(root: str, layer: Layer) -> str:
    """Why ``layer`` does not act and the command that fixes it, in one sentence (a session's
    opening text too: the command is named as one only the person runs, dp.widening)."""
    from dp.widening import person_runs

    file = layer.file
    if layer.state == OUTSIDE:
        return (f"{file.path} is a link to {file.real}, outside this repository ({root}): a rule file acts only "
                f"in its own repository, so its rules never apply here, trusted or not (make it a file of this "
                f"repository: `cp --remove-destination {file.real} {file.path}`, read it, then "
                f"{person_runs('`dp trust`', f' in {root}')})")
    if layer.state == BROKEN:
        return (f"{file.path}: {file.problem}; its rules do not apply (fix the file; the other layers still do)")
    rules = f"its rules ({len(file.rules)})"
    until = person_runs("`dp trust --show`, then `dp trust`", f" in {root}")
    if layer.state == CHANGED:
        return f"{file.path} changed since you trusted it, so {rules} do not apply until {until}"
    return f"{file.path} is not trusted, so {rules} do not apply until {until}"


SOURCES = (USER, PROJECT, LOCAL)
