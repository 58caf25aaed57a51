"""The render-time check of a value a program may read as an option (stdlib only: the hook runs it).

``dp.shell.options`` finds, when a template is judged, the placeholders a
program may read as an option; when the template is rendered and each value
is known, ``option_problem`` refuses a value there that starts with ``-``
(``START``), or that is not a plain name inside an option's name
(``INSIDE``: ``--{{mode}}``). Both template surfaces call it: YAML steps in
``dp.recipes.templates.render_shell``, alias recipes through the
``dp_option`` filter (``dp.rules.recipe_values``), in the hook.
"""

from __future__ import annotations

import re

# Where a program may read an option: the value starts a word (START); a piece of it does, split off by
# read, mapfile or for (SPLIT: a - after any non-word character), or cut by ${V#…}, ${V:n}, ${V/…}
# (CUT: a - anywhere); the value is inside an option's name (INSIDE: --{{mode}}).
START, SPLIT, CUT, INSIDE = "start", "split", "cut", "inside"
STRICTER = {START: 0, SPLIT: 1, CUT: 2}
_PLAIN_NAME = re.compile(r"(?:[A-Za-z0-9_][A-Za-z0-9_.-]*)?")
_SPLIT_DASH = re.compile(r"(?:^|[^A-Za-z0-9_])-")
_PIECES = {SPLIT: "a piece of its value (split off by read, mapfile or for)",
           CUT: "a piece of its value (cut by ${V#…}, ${V:n} or ${V/…})"}


def option_problem(tag: str, line: int, check: tuple[str, str], value) -> str | None:
    """Why the known ``value`` of placeholder ``tag`` may not stand where ``check`` says a program
    reads options (``Plan.options``), or None. ``value`` is None when it is known only when the
    script runs (an alias argument typed as ``"$X"`` or ``*.txt``). A value not starting with ``-``
    costs one comparison."""
    program, kind = check
    if value is not None and _fine(kind, value):
        return None
    if kind in _PIECES:
        return (f"line {line}: {tag} would be read as an option by {program}: {_PIECES[kind]} may start with -; "
                f"put -- before it ({program} … -- \"$V\"), or ./ in front of a file name")
    if kind == INSIDE:
        return (f"line {line}: {tag} is part of an option's name for {program}, and its value "
                f"{_shown(value)} is not a plain name (letters, digits, - _ .), so it could make another option; "
                f"give the value as the option's own value (--name={tag})")
    return (f"line {line}: {tag} would be read as an option by {program}: its value {_shown(value)} "
            f"{'is known only when it runs' if value is None else 'starts with -'}; put -- before it "
            f"({program} … -- {tag}), or ./ in front of a file name")


def _fine(kind: str, value: str) -> bool:
    if kind == START:
        return value[:1] != "-" or value == "-"
    if kind == SPLIT:
        return "-" not in value or not _SPLIT_DASH.search(value)
    if kind == CUT:
        return "-" not in value
    return bool(_PLAIN_NAME.fullmatch(value))


def _shown(value) -> str:
    if value is None:
        return "(an expansion)"
    return repr(value if len(value) <= 40 else value[:40] + "…")


