"""Makefile targets by reading the files, never by running make.

make evaluates a Makefile to list its targets, and evaluating runs things:
``$(shell …)``, ``$(file >…)``, ``!=`` assignments, ``override SHELL`` and the
recipes that remake an included makefile. To the hook and the MCP server a
repository is data (docs/security.md), so they read the text instead. What
only evaluation could tell is *unknown*, with the reason, never guessed:

* a rule whose target names hold a variable or function (``$(NAME)-x:``);
* a line that is an expansion of its own (``$(eval …)``, ``$(foreach …)``);
* an ``include`` of a name built from variables, of a file that does not
  exist (make would try to build it), or of one outside the repository (not read);
* ``load``, a changed ``.RECIPEPREFIX``, more files, bytes or depth than the bounds.

What is read: logical lines (backslash continuations), comments, recipe lines
(a tab after a rule; the text after ``;``), ``define … endef`` bodies (skipped),
conditionals (a target defined inside one is *conditional*: evaluation decides
whether it exists, so callers treat it as unknown), ``.PHONY``, static pattern
rules (their targets are real), pattern rules (skipped: not a name),
target-specific variables (not rules), ``::`` and grouped ``&:`` rules, and the
``## text`` descriptions (on the rule line, or a line of its own above it).
"""

from __future__ import annotations

import glob
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from dp.errors import DpError
from dp.paths import confined

MAX_FILES = 64
MAX_DEPTH = 16
MAX_TOTAL_BYTES = 16 << 20
MAX_REASONS = 5
# Targets worth offering: plain names, no paths, no special (.PHONY-like) targets.
LISTABLE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*")
_CONDITIONALS = ("ifeq", "ifneq", "ifdef", "ifndef")
_INCLUDES = {"include": True, "-include": False, "sinclude": False}
_PREFIXES = ("override", "export", "private", "unexport")
_DOC = re.compile(r"##\s*(.+?)\s*$")


@dataclass
class Target:
    name: str
    description: str | None
    conditional: bool


@dataclass
class Reading:
    """What the text says: the targets, which are ``.PHONY``, and what it hides (``unknown``)."""

    targets: dict = field(default_factory=dict)  # name → Target
    phony: set = field(default_factory=set)
    unknown: list = field(default_factory=list)

    def hidden(self, reason: str) -> None:
        if reason not in self.unknown:
            self.unknown.append(reason)

    def summary(self) -> str:
        """The reasons in one line ('' when the text tells everything)."""
        shown = self.unknown[:MAX_REASONS]
        more = len(self.unknown) - len(shown)
        return "; ".join(shown) + (f"; and {more} more" if more > 0 else "")


def read(makefile: Path, directory: Path, root: Path) -> Reading:
    """The targets of ``makefile`` as make would run it in ``directory``, includes
    followed only inside ``root`` (the repository). DpError when the makefile
    itself cannot be read or is not a Makefile at all."""
    reader = _Reader(Path(directory), Path(root))
    if confined(makefile, root) is None:  # a link out of the repository: its text is not the project's
        reader.reading.hidden(f"{makefile.name} leads outside the repository: not read")
        return reader.reading
    reader.file(Path(makefile), depth=0)
    reader.optional_includes_done()
    return reader.reading


class _Reader:
    def __init__(self, directory: Path, root: Path):
        self.directory = directory
        self.root = root
        self.reading = Reading()
        self.seen: set = set()
        self.total = 0
        self.missing_optional: list = []
        self.patterns = False

    def file(self, path: Path, depth: int) -> None:
        from dp.runners.base import read_text

        self.seen.add(os.path.realpath(path))
        self.total += path.stat().st_size
        if self.total > MAX_TOTAL_BYTES:
            self.reading.hidden(f"the makefiles are over {MAX_TOTAL_BYTES >> 20} MiB: {self._name(path)} not read")
            return
        _File(self, path, read_text(path).split("\n"), depth).read()

    def _name(self, path: Path) -> str:
        try:
            return os.path.relpath(path, self.directory)
        except ValueError:
            return str(path)

    def include(self, words: list, required: bool, where: str, depth: int) -> None:
        for word in words:
            if "$" in word:
                self.reading.hidden(f"{where} includes {word}: a name make computes")
                continue
            pattern = word if os.path.isabs(word) else str(self.directory / word)
            names = sorted(glob.glob(pattern)) if any(char in word for char in "*?[") else [pattern]
            for name in names:
                self._one_include(Path(name), word, required, where, depth)

    def _one_include(self, path: Path, word: str, required: bool, where: str, depth: int) -> None:
        real = confined(path, self.root)
        if real is None:
            self.reading.hidden(f"{where} includes {word}, outside the repository: not read")
        elif not real.is_file():
            if required:
                self.reading.hidden(f"{where} includes {word}, which does not exist: make would try to build it")
            else:
                self.missing_optional.append((word, where))
        elif str(real) in self.seen:
            return
        elif depth >= MAX_DEPTH or len(self.seen) >= MAX_FILES:
            self.reading.hidden(f"{where} includes {word}: past the bounds ({MAX_FILES} files, {MAX_DEPTH} levels)")
        else:
            try:
                self.file(real, depth + 1)
            except (DpError, OSError):
                self.reading.hidden(f"{where} includes {word}, which cannot be read")

    def optional_includes_done(self) -> None:
        """A missing ``-include`` is nothing, unless a rule could make it (make would run that rule)."""
        for word, where in self.missing_optional:
            if self.patterns or word in self.reading.targets or os.path.basename(word) in self.reading.targets:
                self.reading.hidden(f"{where} includes {word}, which a rule would build first")


class _File:
    """One makefile's lines, read in order."""

    def __init__(self, reader: _Reader, path: Path, lines: list, depth: int):
        self.reader = reader
        self.reading = reader.reading
        self.path = path
        self.name = reader._name(path)
        self.lines = lines
        self.depth = depth
        self.in_rule = False
        self.conditions = 0

    def read(self) -> None:
        number = 0
        previous_doc = None
        while number < len(self.lines):
            raw = self.lines[number]
            start = number
            if raw.startswith("\t") and self.in_rule:
                number = self._skip_continued(number)  # a recipe line, with its continuations
                continue
            text, number = self._logical(number)
            doc = _DOC.search(text) if "##" in text else None
            code = _strip_comment(text).strip()
            if not code:
                previous_doc = _DOC.match(text.strip()) if text.strip().startswith("##") else None
                continue
            where = f"{self.name}:{start + 1}"
            number = self._line(code, where, number, (doc or previous_doc))
            previous_doc = None

    def _skip_continued(self, number: int) -> int:
        while _continued(self.lines[number]) and number + 1 < len(self.lines):
            number += 1
        return number + 1

    def _logical(self, number: int) -> tuple:
        parts = [self.lines[number]]
        while _continued(parts[-1]) and number + 1 < len(self.lines):
            parts[-1] = parts[-1][:-1].rstrip()
            number += 1
            parts.append(self.lines[number].lstrip())
        return " ".join(parts), number + 1

    def _line(self, code: str, where: str, number: int, doc) -> int:
        word, _, rest = code.partition(" ")
        word = word.split("(", 1)[0] if word.startswith(_CONDITIONALS) else word
        if word in _CONDITIONALS:
            self.conditions += 1
        elif word == "else":
            pass
        elif word == "endif":
            self.conditions = max(0, self.conditions - 1)
        elif word in _INCLUDES:
            self.in_rule = False
            self.reader.include(rest.split(), _INCLUDES[word], where, self.depth)
        elif word in ("load", "-load"):
            self.reading.hidden(f"{where} loads a make extension")
        elif word in ("vpath", "undefine"):
            pass
        else:
            return self._statement(code, where, number, doc)
        return number

    def _statement(self, code: str, where: str, number: int, doc) -> int:
        words = code.split()
        while words and words[0] in _PREFIXES and len(words) > 1:
            words = words[1:]
            code = code.split(None, 1)[1]
        if words[0] == "define":
            return self._skip_define(number)
        if words[0] in _PREFIXES:  # `export` alone: every variable
            return number
        kind, at = _separator(code)
        if kind == "assignment":
            self.in_rule = False
            if code[:at].strip().rstrip("?+!:").strip() == ".RECIPEPREFIX":
                self.reading.hidden(f"{where} changes .RECIPEPREFIX: recipe lines cannot be told apart")
        elif kind == "rule":
            self._rule(code[:at], code[at + 1 :], where, doc)
        elif "$" in code:
            self.in_rule = False
            self.reading.hidden(f"{where} is an expansion make evaluates ({_short(code)})")
        elif not self.conditions:  # a branch make does not take is never parsed
            raise DpError(
                f"cannot read {self.path}: line {where.rpartition(':')[2]} is neither a rule, a variable nor "
                f"a directive ({_short(code)}); missing separator? a recipe line starts with a tab"
            )
        return number

    def _skip_define(self, number: int) -> int:
        depth = 1
        while number < len(self.lines) and depth:
            first = self.lines[number].split()[:2]
            while first and first[0] in _PREFIXES:
                first = first[1:]
            if first[:1] == ["define"]:
                depth += 1
            elif first[:1] == ["endef"]:
                depth -= 1
            number += 1
        return number

    def _rule(self, targets: str, after: str, where: str, doc) -> None:
        self.in_rule = True
        prerequisites = after[1:] if after.startswith(":") else after
        prerequisites = prerequisites.split(";", 1)[0]
        if _separator(prerequisites)[0] == "assignment":
            return  # `target: VAR = value`: a target-specific variable, not a rule
        names = targets.strip().removesuffix("&").split()
        for name in names:
            if "$" in name:
                self.reading.hidden(f"{where} defines a target whose name make computes ({_short(name)})")
            elif "%" in name:
                self.reader.patterns = True
            elif name == ".PHONY":
                self.reading.phony.update(word for word in prerequisites.split() if "$" not in word)
            elif LISTABLE.fullmatch(name):
                self._target(name, doc)

    def _target(self, name: str, doc) -> None:
        known = self.reading.targets.get(name)
        conditional = self.conditions > 0 and (known is None or known.conditional)
        description = (doc.group(1) if doc else None) or (known.description if known else None)
        self.reading.targets[name] = Target(name, description, conditional)


def _continued(line: str) -> bool:
    """An odd number of trailing backslashes joins the next line."""
    return (len(line) - len(line.rstrip("\\"))) % 2 == 1


def _strip_comment(text: str) -> str:
    index = 0
    while True:
        index = text.find("#", index)
        if index < 0:
            return text
        if index and text[index - 1] == "\\":
            index += 1
            continue
        return text[:index]


def _separator(code: str) -> tuple:
    """("assignment" | "rule" | "", index) of the first ``=`` or ``:`` outside ``$( )``."""
    depth = 0
    for index, char in enumerate(code):
        if char in "({":
            depth += index > 0 and code[index - 1] == "$" or depth > 0
        elif char in ")}" and depth:
            depth -= 1
        elif depth:
            continue
        elif char == "=":
            return "assignment", index
        elif char == ":":
            rest = code[index:]
            if rest.startswith((":=", "::=", ":::=")):
                return "assignment", index
            return "rule", index
    return "", -1


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
