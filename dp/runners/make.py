"""Makefile targets: read from the files, or (when a person asked) from make's database.

By default the targets are read from the text (``dp.runners.makefile_text``):
make evaluates a Makefile to list it, and a repository's Makefile must not run
because an agent typed ``make -v`` (docs/security.md). What the text hides
behind evaluation is the runner's ``unknown``. Only a command a person typed
(``dp tasks``, ``dp make --list``, ``dp run``: ``base.tools_asked``) asks make
itself (``make -pRrq``), so ``$(NAME)-x:`` counts as the target it expands to.
Either way ``.PHONY`` targets are marked, and the ``target: ## text`` idiom (or
a ``## text`` line right above the rule) supplies descriptions.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from dp.errors import DpError
from dp.paths import find_upwards
from dp.runners import makefile_text
from dp.runners.base import LIST_TIMEOUT, Runner, Task, asking_tools, first_existing, installed, read_text

MAKEFILE_NAMES = ("GNUmakefile", "makefile", "Makefile")  # make's own search order
LISTABLE = makefile_text.LISTABLE
# "Makefile:3: *** missing separator.  Stop." — not a failed recipe's "*** [x] Error 1".
_SYNTAX_ERROR = re.compile(r"^[^#\t\s][^:]*:\d+: \*\*\* .*")
_RULE = re.compile(r"^([^#\t=:][^=:]*?)(::?)(?!=)(.*)$")
_RECIPE_FROM = re.compile(r"^#  recipe to execute \(from '(.+)', line (\d+)\):$")
_INLINE_DOC = re.compile(r"^[^#\t].*?:(?!=)[^#]*##\s*(.+?)\s*$")
_LINE_DOC = re.compile(r"^##\s*(.+?)\s*$")


def find_makefile(directory: Path) -> Path | None:
    return first_existing(directory, MAKEFILE_NAMES)


def detect(directory: Path, project_root: Path) -> list[Runner]:
    makefile = find_makefile(directory)
    if makefile is None:
        return []
    tasks, unknown = _targets(directory, makefile, project_root)
    if _asks_make():
        reason = f"{makefile.name} found: targets from make's database (make -pRrq)"
    else:
        reason = f"{makefile.name} found: targets read from the file (make not run)"
    return [Runner("make", ecosystem="make", reason=reason, root=directory, tasks=tasks, unknown=unknown)]


def list_targets(directory: Path) -> list[Task]:
    """The Makefile targets of ``directory`` (``make TARGET`` runs each).

    Raises DpError when the Makefile cannot be read; returns [] when there
    is no Makefile.
    """
    makefile = find_makefile(directory)
    if makefile is None:
        return []
    return _targets(directory, makefile, find_upwards(directory, ".git") or directory)[0]


def _asks_make() -> bool:
    return asking_tools() and installed("make")


def _targets(directory: Path, makefile: Path, root: Path) -> tuple[list[Task], str]:
    """The tasks and what the reading could not tell ('' from make's database)."""
    if not _asks_make():
        reading = makefile_text.read(makefile, directory, root)
        tasks = [
            _task(target.name, target.name in reading.phony, target.description, target.conditional)
            for target in reading.targets.values()
        ]
        return tasks, reading.summary()
    docs = _descriptions(directory)
    return [
        _task(name, phony, (location and docs.get(location)) or docs.get(name))
        for name, phony, location in _targets_from_database(directory, makefile)
    ], ""


def _task(name: str, phony: bool, description, conditional: bool = False) -> Task:
    return Task(
        name,
        ["make", name],
        description=description,
        kind="phony target" if phony else "target",
        accepts_args=False,
        conditional=conditional,
    )


def _targets_from_database(directory: Path, makefile: Path):
    """(name, phony, (file, header line)) for each target in make's database.

    Only when a person asked (``base.tools_asked``): make evaluates the file,
    and a Makefile can run commands while it is read (``override SHELL``,
    ``$(file >…)``). ``-q`` runs no recipe for the goal and ``SHELL=false``
    stops the plain ``$(shell …)`` and the remaking of included makefiles.
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


def _descriptions(directory: Path) -> dict:
    """``## text`` docs keyed by (file, header line number) and by literal name."""
    docs: dict = {}
    makefile = find_makefile(directory)
    for path in sorted({*([makefile] if makefile is not None else []), *directory.glob("*.mk")}):
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
