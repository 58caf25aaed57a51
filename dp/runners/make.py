"""Makefile targets, as make itself sees them.

Targets come from make's database (``make -pRrq``), not from a regex over the
file, so ``$(NAME)-x:`` counts as the target it expands to, ``FOO:=bar`` is a
variable and not a target, and included makefiles are seen. ``.PHONY`` targets
are marked, and the ``target: ## text`` idiom (or a ``## text`` line right above
the rule) supplies descriptions.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Optional

from dp.errors import DpError
from dp.runners.base import LIST_TIMEOUT, Runner, Task, first_existing, installed, read_text

MAKEFILE_NAMES = ("GNUmakefile", "makefile", "Makefile")  # make's own search order
# Targets worth offering: plain names, no paths, no special (.PHONY-like) targets.
LISTABLE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*")
# "Makefile:3: *** missing separator.  Stop." — not a failed recipe's "*** [x] Error 1".
_SYNTAX_ERROR = re.compile(r"^[^#\t\s][^:]*:\d+: \*\*\* .*")
_RULE = re.compile(r"^([^#\t=:][^=:]*?)(::?)(?!=)(.*)$")
_RECIPE_FROM = re.compile(r"^#  recipe to execute \(from '(.+)', line (\d+)\):$")
_INLINE_DOC = re.compile(r"^[^#\t].*?:(?!=)[^#]*##\s*(.+?)\s*$")
_LINE_DOC = re.compile(r"^##\s*(.+?)\s*$")


def find_makefile(directory: Path) -> Optional[Path]:
    return first_existing(directory, MAKEFILE_NAMES)


def detect(directory: Path, project_root: Path) -> list[Runner]:
    makefile = find_makefile(directory)
    if makefile is None:
        return []
    if installed("make"):
        reason = f"{makefile.name} found: targets from make's database (make -pRrq)"
    else:
        reason = f"{makefile.name} found, but make is not installed: targets read from the file"
    return [
        Runner(
            "make", ecosystem="make", reason=reason, root=directory, tasks=list_targets(directory)
        )
    ]


def list_targets(directory: Path) -> list[Task]:
    """The Makefile targets of ``directory`` (``make TARGET`` runs each).

    Raises DpError when make cannot read the Makefile; returns [] when there
    is no Makefile.
    """
    makefile = find_makefile(directory)
    if makefile is None:
        return []
    if installed("make"):
        found = _targets_from_database(directory, makefile)
    else:
        found = _targets_from_text(makefile)
    docs = _descriptions(directory)
    return [
        Task(
            name,
            ["make", name],
            description=(location and docs.get(location)) or docs.get(name),
            kind="phony target" if phony else "target",
            accepts_args=False,
        )
        for name, phony, location in found
    ]


def _targets_from_database(directory: Path, makefile: Path):
    """(name, phony, (file, header line)) for each target in make's database.

    ``-q`` runs no recipe for the goal, but make still remakes included
    makefiles; ``SHELL=false`` on the command line makes those recipes (and
    ``$(shell …)``) fail harmlessly, so listing targets never changes the tree.
    """
    import shutil

    from dp.process import run_process

    env = {key: value for key, value in os.environ.items() if not key.startswith(("MAKE", "MFLAGS"))}
    env["LC_ALL"] = "C"
    argv = ["make", "-pRrq", f"SHELL={shutil.which('false') or '/bin/false'}"]
    result = run_process(argv, cwd=directory, env=env, timeout=LIST_TIMEOUT, capture_limit=64 << 20)
    if result.timed_out:
        raise DpError(f"make took over {LIST_TIMEOUT}s to read {makefile}")
    syntax_error = next(filter(None, map(_SYNTAX_ERROR.match, result.output.splitlines())), None)
    if syntax_error:
        raise DpError(f"make cannot read {makefile}: {syntax_error.group(0).strip()}")
    return _parse_database(result.output)


def _parse_database(text: str):
    files = text.partition("\n# Files\n")[2].partition("\n# files hash-table stats")[0]
    found = []
    phony: set[str] = set()
    for entry in files.split("\n\n"):
        lines = entry.strip("\n").splitlines()
        if not lines or lines[0] == "# Not a target:":
            continue
        header = next((line for line in lines if not line.startswith("#")), "")
        match = _RULE.match(header)
        if not match or "=" in match.group(3):  # target-specific variable
            continue
        name = match.group(1).strip()
        if name == ".PHONY":
            phony.update(match.group(3).split())
        if not LISTABLE.fullmatch(name):
            continue
        location = None
        for line in lines:
            recipe = _RECIPE_FROM.match(line)
            if recipe:
                location = (recipe.group(1), int(recipe.group(2)) - 1)
        found.append((name, location))
    return [(name, name in phony, location) for name, location in found]


def _targets_from_text(makefile: Path):
    """Fallback without make: literal target names only."""
    names: dict[str, None] = {}
    phony: set[str] = set()
    for line in read_text(makefile).splitlines():
        match = _RULE.match(line)
        if not match or "=" in match.group(3).split("#")[0]:
            continue
        if match.group(1).strip() == ".PHONY":
            phony.update(match.group(3).split("#")[0].split())
        names.update((name, None) for name in match.group(1).split() if LISTABLE.fullmatch(name))
    return [(name, name in phony, None) for name in names]


def _descriptions(directory: Path) -> dict:
    """``## text`` docs keyed by (file, header line number) and by literal name."""
    docs: dict = {}
    for path in sorted({find_makefile(directory), *directory.glob("*.mk")} - {None}):
        lines = read_text(path).splitlines()
        relative = os.path.relpath(path, directory)
        for number, line in enumerate(lines, start=1):
            inline = _INLINE_DOC.match(line)
            above = _LINE_DOC.match(lines[number - 2]) if number > 1 else None
            doc = inline or above
            if not doc or not _RULE.match(line):
                continue
            text = doc.group(1)
            for key in {(relative, number), (path.name, number), (str(path), number)}:
                docs[key] = text
            for name in line.split("##", 1)[0].split(":", 1)[0].split():
                if "$" not in name:
                    docs.setdefault(name, text)
    return docs
