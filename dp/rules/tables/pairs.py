"""Translation tables: how one command's flags and operands map onto another's.

A command rule between two tools (``dp alias --cmd grep --replace rg``) only
keeps the agent's meaning if every flag is translated too. The knowledge of
*what* maps to *what* is data: one TOML file per tool pair in
``dp/rules/tables/``, named ``SOURCE-to-TARGET.toml`` (``grep-to-rg.toml``,
``find-to-fd.toml`` …). The engines that
apply it live in ``dp.rules.translate`` (``style = "options"``) and
``dp.rules.findexpr`` (``style = "find"``). Anything a table does not name is
*unknown*, and a command using it is left untouched: never a half translation.

Format (every key optional unless marked)::

    source = "grep"            # required: the command the agent typed
    target = "rg"              # required: the command it becomes
    style = "options"          # "options" (getopt-style) or "find" (find's expression)
    about = "one line shown by dp doctor / the README"

    [flags]                    # source flag → its translation
    "-i" = { to = ["-i"] }                 # target words; [] drops the flag
    "--ignore-case" = "-i"                  # a string: same entry as that flag
    "-A" = { value = true, to = ["-A", "{}"] }   # takes a value; "{}" is the value as one word
    "--include" = { value = true, to = ["-g", "{}"], check = "basename-glob" }
    "-E" = { to = [], sets = ["ere"] }     # marks, read by [[adjust]] / [[refuse]] / checks
    "--binary-files" = { value = true, choices = { text = "-a", binary = { to = [] } } }
                                           # the value picks the entry (a flag's name or an entry)
    "-G" = { unknown = "basic regex …" }   # explicitly unknown, with the reason shown

    [operands]
    pattern = true             # the first operand is a pattern (unless a flag `sets` "pattern-given")
    check = { default = "bre", ere = "ere", fixed = "any" }   # pattern check per mark
    binary-names = ["*.png"]   # operands named so set the mark "binary-name"

    [[adjust]]                 # semantics the flags can fix: applied when all `when` marks
    when = ["recursive"]       # are set and none of `unless` is
    unless = []
    add = ["--hidden", "--no-ignore"]   # target flags added after the translated ones (none: a note only)
    paths = ["."]              # operands used when the command gave none
    note = "rg skips hidden and ignored files; grep -r does not"

    [[refuse]]                 # shapes the target cannot express
    when = ["pattern-file"]
    unless = ["fixed"]
    reason = "-f patterns are basic regexes dp cannot check"

    [subcommands.install]      # for tools with subcommands (package managers):
    to = ["add"]               # the target's words for it,
    flags = { "-D" = { to = ["-D"] } }   # flags of this subcommand (over the top-level ones)

Marks the engine sets itself: ``binary-name`` (an operand matches ``binary-names``), ``no-paths`` (no operand besides the pattern),
``file-paths`` (every operand looks like a file name, not a directory),
``run-by`` (``xargs``/``find -exec`` adds operands when it runs the command),
``stdin`` (standard input is a pipe or a file).

Tables are read through ``dp.rules.tables.load_path`` (TOML parsed once,
then JSON from the cache directory, keyed by the file's size and mtime): the
hook opens one small JSON file, and only when a command rule fires. Another
directory of tables in the same form can be passed to ``table_for`` and
``load_tables``.
"""

from __future__ import annotations

import os
import re

from dp.shell.programs import OTHER_NAMES, same_program  # noqa: F401 (dp.rules.tables.pairs.same_program …)

TABLE_DIR = os.path.dirname(__file__)
SUFFIX = ".toml"
_NAME = re.compile(r"[A-Za-z0-9_.+]+(-[A-Za-z0-9_.+]+)*\Z")
STYLES = ("options", "find")
_ENTRY_KEYS = frozenset({"to", "value", "sets", "unknown", "check", "note", "batch", "choices"})


class TableError(Exception):
    """A table file that does not follow the format (a bug in the shipped data)."""


class Table:
    """One tool pair's translation data, validated."""

    __slots__ = ("source", "target", "style", "about", "flags", "operands", "adjust", "refuse", "subcommands", "path",
                 "raw_reverse", "backwards")

    def __init__(self, data: dict, path: str = ""):
        self.source = data["source"]
        self.target = data["target"]
        self.style = data.get("style", "options")
        self.about = data.get("about", "")
        self.flags = data.get("flags", {})
        self.operands = data.get("operands", {})
        self.adjust = data.get("adjust", [])
        self.refuse = data.get("refuse", [])
        self.subcommands = data.get("subcommands", {})
        self.path = path
        self.raw_reverse = data.get("reverse")  # how the table reads backwards (dp.rules.tables.reverse)
        self.backwards = bool(data.get("backwards"))  # this table is another read backwards

    def flag(self, name: str, subcommand: str = ""):
        """The entry for source flag ``name`` (dict), or None when unknown."""
        if subcommand:
            entry = self.subcommands[subcommand].get("flags", {}).get(name)
            if entry is not None:
                return entry
        return self.flags.get(name)

    def __repr__(self) -> str:
        return f"Table({self.source!r} → {self.target!r})"


_made: dict = {}  # (source, target, directory) → its Table or None, made once per process like load_path's read


def table_for(source: str, target: str, directory: str = TABLE_DIR) -> Table | None:
    """The table translating ``source`` into ``target``, or None if dp has none: a table file, or the
    table of the other direction read backwards where it says how (``rg`` → ``grep``, its ``[reverse]``).
    Made once per process (a translation asks for it more than once: dp-capture's answer on the failed
    call's time, ``dp.learn.tables.translated``)."""
    key = (source, target, directory)
    if key not in _made:
        _made[key] = _table_for(source, target, directory)
    return _made[key]


def _table_for(source: str, target: str, directory: str) -> Table | None:
    if not (_NAME.match(source) and _NAME.match(target)):
        return None
    path = os.path.join(directory, f"{source}-to-{target}{SUFFIX}")
    if os.path.isfile(path):
        return Table(compile_file(path), path)
    other = os.path.join(directory, f"{target}-to-{source}{SUFFIX}")
    if not os.path.isfile(other):
        return None
    data = _read_backwards(other)
    return Table(data, other) if data is not None else None


def _read_backwards(path: str) -> dict | None:
    """The table ``path`` read backwards (``dp.rules.tables.reverse``), kept in dp's cache directory
    stamped by that file and the module that reads it so: the reading walks every flag of the table,
    and dp-capture makes it on a failed call's time (``rg: command not found``)."""
    from dp.cachedir import read_stamped, write_stamped

    stamp = "\0".join([path, *(f"{os.stat(file).st_size}:{os.stat(file).st_mtime_ns}"
                                for file in (path, os.path.join(TABLE_DIR, "reverse.py")))])
    data = read_stamped("table-backwards", stamp)
    if data is None:
        from dp.rules.tables.reverse import reverse_data

        data = reverse_data(Table(compile_file(path), path))
        if data is not None:
            write_stamped("table-backwards", stamp, data)
    return data


def load_tables(directory: str = TABLE_DIR) -> dict:
    """Every pair table in ``directory`` by ``(source, target)``."""
    try:
        names = sorted(name for name in os.listdir(directory) if name.endswith(SUFFIX) and "-to-" in name)
    except OSError:
        return {}
    tables = {}
    for name in names:
        path = os.path.join(directory, name)
        table = Table(compile_file(path), path)
        tables[(table.source, table.target)] = table
    return tables


def compile_file(path: str) -> dict:
    """Read and validate one table (aliases such as ``"--x" = "-y"`` resolved)."""
    from dp.rules.tables import load_path

    try:
        data = load_path(path)
    except ValueError as error:  # tomllib.TOMLDecodeError
        raise TableError(f"{path}: {error}") from None
    return validate(data, path)


def validate(data: dict, where: str = "table") -> dict:
    """Check one table's structure; returns it with flag aliases resolved."""
    for key in ("source", "target"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise TableError(f"{where}: '{key}' must be a non-empty string")
    if data.get("style", "options") not in STYLES:
        raise TableError(f"{where}: style must be one of {', '.join(STYLES)}")
    data["flags"] = _flags(data.get("flags", {}), where)
    for name, sub in data.get("subcommands", {}).items():
        if not isinstance(sub, dict) or not _words(sub.get("to", [name])):
            raise TableError(f"{where}: subcommand {name!r} needs 'to' as a list of words")
        sub["flags"] = _flags(sub.get("flags", {}), f"{where}: subcommand {name!r}")
    for section in ("adjust", "refuse"):
        for rule in data.get(section, []):
            if not (_words(rule.get("when", [])) and _words(rule.get("unless", []))):
                raise TableError(f"{where}: [[{section}]] 'when'/'unless' must be lists of marks")
            if section == "refuse" and not isinstance(rule.get("reason"), str):
                raise TableError(f"{where}: [[refuse]] needs a 'reason'")
    return data


def _flags(flags: dict, where: str) -> dict:
    resolved = {}
    for name, entry in flags.items():
        entry = _resolve(flags, name, entry, where)
        if not isinstance(entry, dict) or set(entry) - _ENTRY_KEYS:
            raise TableError(f"{where}: flag {name!r} has keys outside {sorted(_ENTRY_KEYS)}")
        if "choices" in entry:
            if not (entry.get("value") and isinstance(entry["choices"], dict)):
                raise TableError(f"{where}: flag {name!r}: 'choices' needs value = true and a table of values")
            entry["choices"] = {value: _resolve(flags, f"{name}={value}", choice, where)
                                for value, choice in entry["choices"].items()}
            if not all(isinstance(choice, dict) and _words(choice.get("to")) for choice in entry["choices"].values()):
                raise TableError(f"{where}: flag {name!r}: every choice needs 'to' (a list of words)")
        elif "unknown" not in entry and not _words(entry.get("to")):
            raise TableError(f"{where}: flag {name!r} needs 'to' (a list of words) or 'unknown'")
        resolved[name] = entry
    return resolved


def _resolve(flags: dict, name: str, entry, where: str):
    """``entry`` with a string (another flag's name, ``"--x" = "-y"``) followed to that flag's entry."""
    seen = [name]
    while isinstance(entry, str):
        if entry in seen or entry not in flags:
            raise TableError(f"{where}: flag {name!r} refers to {entry!r}, which is not a flag of the table")
        seen.append(entry)
        entry = flags[entry]
    return entry


def _words(value) -> bool:
    return isinstance(value, list) and all(isinstance(word, str) for word in value)


def renames_only(rule) -> bool:
    """Whether ``rule`` is a command rule between two programs dp has no table for.

    Such a rule renames the command word and passes every flag through
    unchanged: ``dp alias`` warns when it is created and ``dp doctor`` lists it.
    Another name of the same program (``python → python3``, what ``dp suggest``
    proposes when the first was not found and the second then worked) is no
    such rename.
    """
    from dp.rules.model import COMMAND

    if rule.match_kind != COMMAND:
        return False
    target = rule.to_name.split(None, 1)[0] if rule.to_name.strip() else ""
    if same_program(rule.command, target):
        return False
    try:
        return table_for(rule.command, rule.to_name) is None
    except TableError:
        return True


def pairs_text() -> str:
    """The pairs dp translates, for messages: ``find → fd, grep → rg``."""
    return ", ".join(f"{source} → {target}" for source, target in sorted(load_tables()))
