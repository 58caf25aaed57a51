"""Changing a project's ``.dp/rules.toml`` the way a person would: only the lines that change.

``dp alias … --project``, ``dp aliases import --project`` and ``dp suggest
--apply ID --project`` turn a correction into a reviewable change of the
committed file. So the file is never re-serialized: a new rule is appended
as one ``[[aliases]]`` table at the end (one hunk in ``git diff``), an update
replaces the ``to`` / ``message`` lines of the entry with that key, a delete
removes the entry's lines; comments, blank lines and order stay as written.

The rules are the store's: every rule passed in was built and validated by
the same code as ``dp alias`` (``dp.rules.build``), the file as it is must
pass the same validation before it is touched (its errors name the line),
and the result is re-read by the real TOML reader and must hold exactly the
intended rules, or nothing is written. The write itself is
``dp.files.replace_file``: atomic, through symlinks, refused when the file
changed meanwhile. A file the user trusted stays trusted after dp's own edit
(the new content is what they asked for), and so does one dp created for them;
an untrusted one stays untrusted.
"""

from __future__ import annotations

import os

from dp import changes
from dp.errors import DpError
from dp.layers.locate import FILES, MAX_BYTES, real_location, repo_root
from dp.layers.projectfile import parse
from dp.layers.tomlscan import entry_blocks, toml_string
from dp.rules.model import Rule

NEW_FILE_HEADER = (
    "# Corrections dp applies for everyone working in this repository.\n"
    "# They act for a person only after `dp trust` (read them first with `dp trust --show`).\n"
    "[meta]\n"
    "version = 1\n"
)


def project_path(directory) -> str:
    """The ``.dp/rules.toml`` of ``directory``'s repository; DpError outside one."""
    directory = os.path.abspath(str(directory))
    root = repo_root(directory)
    if root is None:
        raise DpError(f"{directory} is not inside a git repository; --project writes .dp/rules.toml at a "
                      "repository's root (run it in the repository)")
    path = os.path.join(root, FILES[0][1])
    real, ours = real_location(os.path.realpath(root), path)
    if not ours:
        raise DpError(f"{path} is a link to {real}, outside this repository; dp does not write another "
                      "repository's rules through it, and they never act here (replace the link with a file: "
                      f"cp --remove-destination {real} {path})")
    return path


class _Edit:
    """The file's lines and rules as read, the splices planned, and the rules they must give."""

    def __init__(self, path: str):
        from dp.files import read_bytes

        self.path = path
        self.original = read_bytes(path, MAX_BYTES)
        text = "" if self.original is None else self.original.decode("utf-8", "surrogateescape")
        try:
            self.rules = parse(self.original) if self.original is not None else []
        except DpError as exc:
            raise DpError(f"{path} {exc.message}; fix it first (nothing was changed)") from None
        self.lines = text.splitlines(keepends=True) if text else NEW_FILE_HEADER.splitlines(keepends=True)
        self.newline = "\r\n" if "\r\n" in text else "\n"  # a file written on Windows keeps its line ends
        self.blocks = entry_blocks(self.lines)
        if len(self.blocks) != len(self.rules):
            raise DpError(f"{path}: cannot change it line by line (its entries are not one [[aliases]] table "
                          "each); edit it by hand (nothing was changed)")
        self.deleted: set[int] = set()  # entries of the file to remove
        self.updated: dict[int, Rule] = {}  # entries of the file to give a new payload
        self.expected = list(self.rules)  # the rules the result must hold, in order

    def index_of(self, rule: Rule) -> int | None:
        return next((index for index, have in enumerate(self.expected) if have.key == rule.key), None)

    def append(self, rule: Rule) -> None:
        self.expected.append(rule)

    def update(self, index: int, rule: Rule) -> None:
        """Give the rule at ``index`` of ``expected`` the payload (``to``, ``message``) of ``rule``."""
        self.expected[index] = rule
        if index < len(self.blocks):
            self.updated[index] = rule

    def delete(self, index: int) -> Rule:
        """Remove an entry of the file (deletes happen one per edit, before anything is appended)."""
        self.deleted.add(index)
        return self.expected.pop(index)

    def text(self) -> str:
        splices = [splice for index, rule in self.updated.items() for splice in self._payload(index, rule)]
        splices += [self._removal(index) for index in self.deleted]
        lines = list(self.lines)
        for first, end, new in sorted(splices, key=lambda splice: splice[0], reverse=True):
            lines[first:end] = new
        added = self.expected[len(self.rules) - len(self.deleted):]
        if added:
            if lines and not lines[-1].endswith("\n"):
                lines[-1] += self.newline
            while lines and not lines[-1].strip():
                lines.pop()  # each appended entry brings its own blank line
            for rule in added:
                lines += [self.newline, "[[aliases]]" + self.newline, *_field_lines(rule, self.newline)]
        return "".join(lines)

    def _payload(self, index: int, rule: Rule) -> list[tuple[int, int, list[str]]]:
        """The splices that give entry ``index`` the ``to`` and ``message`` of ``rule``."""
        _, last, keyvals = self.blocks[index]
        splices = []
        for name, value in (("to", rule.to_name), ("message", rule.message)):
            statement = next((kv for kv in keyvals if kv.name == name), None)
            if statement is not None:
                line = self.lines[statement.first]
                indent = line[: len(line) - len(line.lstrip())]
                new = [f"{indent}{name} = {_value(value, self.newline)}{self.newline}"] if value or name == "to" else []
                splices.append((statement.first, statement.last + 1, new))
            elif value:
                splices.append((last + 1, last + 1, [f"{name} = {_value(value, self.newline)}{self.newline}"]))
        return splices

    def _removal(self, index: int) -> tuple[int, int, list[str]]:
        header, last, _ = self.blocks[index]
        blank_after = last + 1 >= len(self.lines) or not self.lines[last + 1].strip()
        first = header - 1 if header > 0 and not self.lines[header - 1].strip() and blank_after else header
        return first, last + 1, []  # the blank line before it goes only when one still separates what is left

    def write(self, db_path, dry_run: bool = False) -> bool:
        """Put the change in place (checked first); whether anything changed (``dry_run``: would change)."""
        data = self.text().encode("utf-8", "surrogateescape")
        if data == (self.original or b"") or (self.original is None and not self.expected):
            return False
        if len(data) > MAX_BYTES:
            raise DpError(f"{self.path} would be {len(data)} bytes, over the {MAX_BYTES} bytes a project rules "
                          "file may hold; keep some rules in your own store (nothing was changed)")
        try:
            written = parse(data)
        except DpError as exc:
            raise DpError(f"{self.path}: the edit would not read back ({exc.message}); "
                          "edit the file by hand (nothing was changed)") from None
        if [_identity(rule) for rule in written] != [_identity(rule) for rule in self.expected]:
            raise DpError(f"{self.path}: cannot change it line by line without changing other rules; "
                          "edit it by hand (nothing was changed)")
        if dry_run:
            return True
        from dp.files import replace_file

        replace_file(self.path, data, expected=self.original)
        if not _keep_trust(db_path, self.path, self.original, data):
            changes.announce(db_path)  # a kept trust is announced by the store; an untrusted file's change here
        return True


def _identity(rule: Rule) -> tuple:
    return (*rule.key, rule.to_name, rule.message)


def _field_lines(rule: Rule, newline: str) -> list[str]:
    from dp.rules.collection import entry

    return [f"{name} = {_value(value, newline)}{newline}" for name, value in entry(rule).items()]


def _value(value: str, newline: str) -> str:
    """``value`` as TOML, a multi-line string's line ends matching the file's."""
    return toml_string(value).replace("\n", newline) if newline != "\n" else toml_string(value)


def _keep_trust(db_path, path: str, before: bytes | None, after: bytes) -> bool:
    """Carry the user's trust over dp's own edit of a file they trusted, and trust a file dp
    created for them (every line of it is theirs); an untrusted file stays untrusted. Whether it trusted."""
    import hashlib

    from dp.layers import since
    from dp.store import Store
    from dp.store.read import read_or_empty
    from dp.store.trust import FILE, record, records

    root = os.path.realpath(os.path.dirname(os.path.dirname(path)))  # path is ROOT/.dp/rules.toml
    real = os.path.realpath(path)
    trusted = (read_or_empty(db_path, lambda conn: records(conn, root)) or {}) if before is not None else {}
    if before is None or trusted.get(real) == hashlib.sha256(before).hexdigest():
        digest = hashlib.sha256(after).hexdigest()
        with Store.open(db_path) as store:
            record(store, root, [(FILE, real, digest)])
            since.refresh(db_path, store.conn, [(real, digest)])  # what dp trust --show compares with
        return True
    return False


def set_rule(db_path, path: str, rule: Rule, dry_run: bool = False) -> tuple[str, Rule]:
    """Add ``rule`` to the file, or update the entry with its key: ("set"|"updated"|"unchanged", rule);
    ``dry_run`` checks the same and writes nothing."""
    edit = _Edit(path)
    index = edit.index_of(rule)
    if index is None:
        edit.append(rule)
        action = "set"
    else:
        edit.update(index, rule)
        action = "updated"
    if not edit.write(db_path, dry_run) and action == "updated":
        action = "unchanged"
    return action, rule


def delete_rule(db_path, path: str, key_rule: Rule, dry_run: bool = False) -> Rule | None:
    """Remove the entry with ``key_rule``'s key; what was removed, or None (``dry_run``: would be)."""
    edit = _Edit(path)
    index = edit.index_of(key_rule)
    if index is None:
        return None
    removed = edit.delete(index)
    edit.write(db_path, dry_run)
    return removed


def import_rules(db_path, path: str, rules: list[Rule], conflict: str, dry_run: bool):
    """``Store.import_rules`` for the project file: all land in one write, or none do."""
    from dp.store.write import ImportReport

    edit = _Edit(path)
    report = ImportReport()
    for rule in rules:
        index = edit.index_of(rule)
        if index is None:
            edit.append(rule)
            report.actions.append(("imported", rule))
        elif conflict == "overwrite":
            edit.update(index, rule)
            report.actions.append(("overwritten", rule))
        else:
            report.actions.append(("skipped", rule))
    if not dry_run:
        edit.write(db_path)
    return report
