"""The project each replayed session worked in, as far as the session itself shows it (run_replay_bench.py).

A session file keeps the calls, not the repository: its working directory (``/testbed/LABEL`` in the
converted trajectories) does not exist where the bench runs, so what dp knows about a project (its
wrapper, its tasks: ``dp.learn.inproject``) could never answer in the replay. The bench therefore gives
each recorded working directory a real one (``Projects.place``: a git repository under the bench's
scratch directory, the session files' ``cwd`` pointed at it, learning's sessions as well, so answers
learned in a repository act in the same one), and before each replayed session lays in it only what that
session shows, nothing guessed:

* a program it ran by a relative path that worked (``./gradlew build``, ``node_modules/.bin/jest``,
  ``.venv/bin/pytest``): a stub program there;
* the npm scripts it ran that exist (``npm run NAME`` or ``npm test`` that worked, or whose output
  opened with npm's ``> package@version NAME`` line): a ``package.json`` with those scripts;
* the make targets it ran that worked (``make NAME``): a ``Makefile`` with those targets.

Nothing is known about a project no call shows; a later session starts from an empty one again.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from dp.shell.segment import simple_commands

# npm's header line for a script it runs: "> ai-workflow-agent@0.2.0 test:unit"
NPM_RAN = re.compile(r"^> \S+@\S+ (\S+)$", re.M)


class Projects:
    """The real directory of each recorded working directory, and what each session shows of it."""

    def __init__(self, into: Path):
        self.into = into
        self.places: dict[str, Path] = {}

    def place(self, recorded: str) -> Path:
        """The real directory standing for ``recorded`` (made once, a git repository, empty)."""
        if recorded not in self.places:
            where = self.into / recorded.strip("/")
            (where / ".git").mkdir(parents=True, exist_ok=True)
            self.places[recorded] = where
        return self.places[recorded]

    def rewrite(self, path: Path) -> None:
        """Point the session file at ``path`` to the real directories of the working directories placed
        (each recorded one as an exact JSON string, whatever the file's format)."""
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
        for recorded, where in sorted(self.places.items()):
            text = text.replace(json.dumps(recorded, ensure_ascii=False), json.dumps(str(where), ensure_ascii=False))
        path.write_text(text, encoding="utf-8", errors="surrogateescape")

    def lay(self, calls: list) -> None:
        """Empty the session's directories, then lay in them what the session's ``calls`` show."""
        shown: dict[Path, dict] = {}
        for call in calls:
            where = call[7]
            if not where:
                continue
            seen = shown.setdefault(Path(where), {"programs": set(), "scripts": set(), "targets": set()})
            _shown_by(call, seen)
        for where, seen in shown.items():
            _empty(where)
            _write(where, seen)


def _shown_by(call, seen: dict) -> None:
    """What one call shows of its project: into ``seen``."""
    outcome, tool_input, error = call[1], call[2], call[3]
    command = (json.loads(tool_input) if tool_input else {}).get("command") or ""
    if outcome != "success" and error:
        seen["scripts"] |= set(NPM_RAN.findall(error))
    if outcome != "success":
        return
    for one in _before_cd(command):
        word, args = one.word.value, [arg.value for arg in one.args if not arg.masked]
        if "/" in word and not word.startswith(("/", "~", "$", "..")) and not one.word.masked:
            seen["programs"].add(word)
        elif word == "npm" and args[:1] in (["test"], ["start"]):
            seen["scripts"].add(args[0])
        elif word == "npm" and args[:1] in (["run"], ["run-script"]) and args[1:2] and not args[1].startswith("-"):
            seen["scripts"].add(args[1])
        elif word == "make" and args[:1] and not args[0].startswith("-") and "=" not in args[0]:
            seen["targets"].add(args[0])


def _before_cd(command: str) -> list:
    """The simple commands of ``command`` that run in the call's own directory (up to its first ``cd``)."""
    found = []
    for one in simple_commands(command) or ():
        if one.word.value in ("cd", "pushd"):
            break
        found.append(one)
    return found


def _empty(where: Path) -> None:
    for child in where.iterdir():
        if child.name != ".git":
            shutil.rmtree(child) if child.is_dir() and not child.is_symlink() else child.unlink()


def _write(where: Path, seen: dict) -> None:
    for program in sorted(seen["programs"]):
        stub = where / program
        if where.resolve() not in stub.resolve().parents:
            continue
        stub.parent.mkdir(parents=True, exist_ok=True)
        stub.write_text("#!/bin/sh\nexit 0\n")
        stub.chmod(0o755)
    if seen["scripts"]:
        scripts = {name: "true" for name in sorted(seen["scripts"])}
        (where / "package.json").write_text(json.dumps({"name": where.name, "version": "0.0.0", "scripts": scripts}))
    if seen["targets"]:
        (where / "Makefile").write_text("".join(f"{name}:\n\t@true\n" for name in sorted(seen["targets"])))
