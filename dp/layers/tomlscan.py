"""Where each statement of a collection file sits, line by line, without rewriting anything.

Editing a committed ``.dp/rules.toml`` must keep every comment, blank line and
entry order the team wrote, so dp never re-serializes the file: it finds the
lines of the one statement it changes (an ``[[aliases]]`` header, a
``to = …`` value) and splices text there. A TOML library reads values, not
positions, hence this small scanner. It knows what can hide a line that
looks like a header — strings of all four kinds (a recipe script holds
``[ -f x ]`` lines), comments, arrays and inline tables spanning lines — and
nothing else; every edit is re-parsed by the real TOML reader and compared
with the intended rules before it is written (``dp.layers.edit``), so a
layout this scanner misreads is refused, never corrupted.
"""

from __future__ import annotations

from dp.shell.syntax import escaped_quote_end

HEADER, ARRAY_HEADER, KEYVAL = "table", "array", "keyval"


class Statement:
    """One top-level statement: its kind, first and last line (0-based, inclusive) and name/key."""

    __slots__ = ("kind", "first", "last", "name")

    def __init__(self, kind: str, first: int, last: int, name: str):
        self.kind, self.first, self.last, self.name = kind, first, last, name

    def __repr__(self) -> str:
        return f"Statement({self.kind}, {self.first}-{self.last}, {self.name!r})"


def statements(lines: list[str]) -> list[Statement]:
    """The statements of a document given as lines (comments and blank lines are not statements)."""
    found, index = [], 0
    while index < len(lines):
        stripped = lines[index].strip()
        if not stripped or stripped.startswith("#"):
            index += 1
        elif stripped.startswith("[["):
            found.append(Statement(ARRAY_HEADER, index, index, _name(stripped[2:].split("]]", 1)[0])))
            index += 1
        elif stripped.startswith("["):
            found.append(Statement(HEADER, index, index, _name(stripped[1:].split("]", 1)[0])))
            index += 1
        else:
            last = _value_end(lines, index)
            found.append(Statement(KEYVAL, index, last, _name(stripped.split("=", 1)[0])))
            index = last + 1
    return found


def entry_blocks(lines: list[str], array: str = "aliases") -> list[tuple[int, int, list[Statement]]]:
    """``(header line, last line, key-value statements)`` of each ``[[array]]`` entry, in order."""
    blocks: list[tuple[int, int, list[Statement]]] = []
    current: tuple[int, int, list[Statement]] | None = None
    for statement in statements(lines):
        if statement.kind == KEYVAL:
            if current is not None:
                current[2].append(statement)
                current = (current[0], statement.last, current[2])
            continue
        if current is not None:
            blocks.append(current)
        current = (statement.first, statement.last, []) if statement.kind == ARRAY_HEADER and statement.name == array \
            else None
    if current is not None:
        blocks.append(current)
    return blocks



def _name(text: str) -> str:
    return text.strip().strip("\"'")


def _value_end(lines: list[str], index: int) -> int:
    """The last line of the key-value statement starting at line ``index``."""
    line = lines[index]
    position = line.find("=") + 1
    if position == 0:
        return index
    depth, open_string = 0, None
    while True:
        depth, open_string = _scan_line(line, position, depth, open_string)
        if open_string is None and depth <= 0:
            return index
        if index + 1 >= len(lines):
            return index
        index, line, position = index + 1, lines[index + 1], 0


def _scan_line(line: str, position: int, depth: int, open_string):
    """Scan one line from ``position``: the bracket depth and the open multi-line string after it."""
    end = len(line)
    while position < end:
        if open_string is not None:
            position, open_string = _in_multiline(line, position, open_string)
            continue
        char = line[position]
        if line.startswith('"""', position) or line.startswith("'''", position):
            open_string, position = line[position : position + 3], position + 3
        elif char == '"':
            position = _basic_end(line, position + 1)
        elif char == "'":
            close = line.find("'", position + 1)
            position = end if close < 0 else close + 1
        elif char == "#":
            break
        else:
            depth += (char in "[{") - (char in "]}")
            position += 1
    return depth, open_string


def _in_multiline(line: str, position: int, delimiter: str):
    """Advance inside a multi-line string: (next position, the string still open or None)."""
    if delimiter == '"""' and line[position] == "\\":
        return position + 2, delimiter
    if line.startswith(delimiter, position):
        position += 3
        while position < len(line) and line[position] == delimiter[0]:  # up to two quotes end the content
            position += 1
        return position, None
    return position + 1, delimiter


def _basic_end(line: str, position: int) -> int:
    """The position after the basic string that starts before ``position`` (the line's end if open)."""
    stop = escaped_quote_end(line, position, '"')
    return stop if stop >= 0 else len(line)


def toml_string(value: str) -> str:
    """``value`` as a TOML string a reviewer can read: one line, or a multi-line basic string
    for a recipe script (its lines stay lines in the diff)."""
    if "\n" not in value or "\r" in value:
        return _basic(value)
    # A quote needs its backslash only where it could close the string: before another quote, or last.
    body = "".join(
        '\\"' if char == '"' and value[index + 1 : index + 2] in ('"', "") else
        char if char == '"' else _escape(char, keep_newline=True)
        for index, char in enumerate(value)
    )
    return '"""\n' + body + '"""'


def _basic(value: str) -> str:
    return '"' + "".join(_escape(char, keep_newline=False) for char in value) + '"'


_ESCAPES = {"\\": "\\\\", '"': '\\"', "\b": "\\b", "\t": "\\t", "\f": "\\f", "\r": "\\r"}


def _escape(char: str, keep_newline: bool) -> str:
    if char == "\n":
        return "\n" if keep_newline else "\\n"
    if char in _ESCAPES:
        return _ESCAPES[char]
    if ord(char) < 0x20 or ord(char) == 0x7F:
        return f"\\u{ord(char):04x}"
    return char
