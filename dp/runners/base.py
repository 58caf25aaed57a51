"""The interface every ecosystem module implements, and what they share.

Three types are the whole interface: an ``Ecosystem`` module detects (looks
at ONE directory and returns the runners it finds there; ``project_root``
bounds any look upwards, e.g. for a workspace's lockfile or cargo config) —
the registry decides the order; a ``Runner`` knows why it was chosen and
lists its tasks; a ``Task`` builds the argv that runs it, so nothing
downstream needs to know about ecosystems. Running is not done here:
``dp.project.task`` turns a task into a ``Command`` for dp's one execution
path, in a directory dp may act in.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import shlex
import sys
from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass
from pathlib import Path
from typing import Any, Protocol

from dp.errors import DpError

# Project files are small; anything bigger is not worth parsing (or a trap).
MAX_PROJECT_FILE_BYTES = 4 * 1024 * 1024

# How tasks came to be: the project defined them, or the tool always has them.
DEFINED = "defined"
BUILTIN = "builtin"


class Ecosystem(Protocol):
    """What an ecosystem module (``dp.runners.javascript``, ``…rust``, …) provides.

    ``detect`` looks at ONE directory and returns the runners it finds there
    (``[]`` when its project file is absent), or raises DpError when that file
    is unreadable; ``project_root`` bounds any look upwards. The modules
    themselves are the implementations: the registry lists them in order.
    """

    __name__: str  # the module's: a problem is reported under its last part (``javascript``)
    def detect(self, directory: Path, project_root: Path) -> list[Runner]: ...


@dataclass(repr=False)
class Task:
    """One runnable task: ``argv`` runs it; extra arguments go after it.

    ``arg_separator`` is put between the task and any extra arguments when the
    tool would otherwise take them for itself (``npm run test -- --watch``).
    A ``--`` the user puts first is normally an argument like any other
    (``cargo test -- --nocapture`` differs from ``cargo test --nocapture``), but
    where the tool has a separator, or ``dashdash_marks_args`` says the
    ecosystem reads a leading ``--`` only as "arguments start here" (package
    managers running scripts), it is taken as that marker and not doubled.
    ``kind`` says what the task is in its ecosystem ("script", "alias",
    "phony target", …); ``origin`` whether the project defined it or the tool
    provides it; ``accepts_args`` False refuses extra arguments (make targets).
    """

    name: str
    argv: Sequence[str]
    _: KW_ONLY
    description: str | None = None
    kind: str = "task"
    origin: str = DEFINED
    arg_separator: str | None = None
    dashdash_marks_args: bool = False
    accepts_args: bool = True
    # Defined in a branch the tool chooses when it reads its file (a Makefile's
    # ``ifeq``): whether the task exists is not known without running the tool.
    conditional: bool = False

    def __post_init__(self) -> None:
        self.argv = tuple(self.argv)
        self.description = self.description or None
        self.dashdash_marks_args = self.dashdash_marks_args or self.arg_separator == "--"

    def command(self, args: Sequence[str] = ()) -> list[str]:
        """The argv that runs this task with ``args`` forwarded to it."""
        args = list(args)
        if self.dashdash_marks_args and args[:1] == ["--"]:
            del args[0]
        if not args:
            return list(self.argv)
        if not self.accepts_args:
            raise DpError(
                f'{self.kind} "{self.name}" takes no arguments (got {" ".join(args)}); '
                "run it without them"
            )
        separator = [self.arg_separator] if self.arg_separator else []
        return [*self.argv, *separator, *args]

    def to_json(self) -> dict:
        shown = {
            "name": self.name,
            "description": self.description,
            "kind": self.kind,
            "builtin": self.origin == BUILTIN,
            "command": shlex.join(self.argv),
        }
        return {**shown, "conditional": True} if self.conditional else shown

    def __repr__(self) -> str:
        return f"Task({self.name!r}, {self.argv!r})"


@dataclass(repr=False)
class Runner:
    """A tool that runs tasks in ``root``, and why dp chose it.

    Its tasks are kept sorted: the project's own first, then the tool's
    built-ins, each by name. ``unknown`` says what reading the project's file
    could not tell (a Makefile target whose name make computes): tasks may
    exist beyond those listed, so nothing may be decided from their absence.
    """

    name: str
    _: KW_ONLY
    ecosystem: str
    reason: str
    root: Path
    tasks: Sequence[Task]
    unknown: str = ""

    def __post_init__(self) -> None:
        self.tasks = sorted(self.tasks, key=lambda task: (task.origin == BUILTIN, task.name))

    def task(self, name: str) -> Task | None:
        return next((task for task in self.tasks if task.name == name), None)

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "ecosystem": self.ecosystem,
            "reason": self.reason,
            "root": str(self.root),
            "tasks": [task.to_json() for task in self.tasks],
            **({"unknown": self.unknown} if self.unknown else {}),
        }

    def __repr__(self) -> str:
        return f"Runner({self.name!r}, {len(self.tasks)} tasks, root={str(self.root)!r})"


def read_text(path: Path) -> str:
    """A project file's text, size-bounded, or a DpError that names the file."""
    from dp.files import read_regular

    try:
        return read_regular(path, MAX_PROJECT_FILE_BYTES).decode("utf-8", errors="replace")
    except FileNotFoundError:
        raise DpError(f"cannot read {path}: it does not exist") from None


def read_json(path: Path) -> Any:
    return _parsed_json(path, read_text(path))


def read_jsonc(path: Path) -> Any:
    """JSON with comments and trailing commas (deno.jsonc, tsconfig-style files)."""
    return _parsed_json(path, _strip_jsonc(read_text(path)))


def _parsed_json(path: Path, text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise DpError(f"parsing {path.name}: {exc} ({path})") from None
    except RecursionError:
        raise too_deep(path) from None


def too_deep(path: Path) -> DpError:
    """The error for a project file nested deeper than Python's JSON, TOML or YAML reader can go."""
    return DpError(f"parsing {path.name}: nested too deeply to read ({path})")


def _strip_jsonc(text: str) -> str:
    """``text`` without // and /* */ comments or trailing commas, strings untouched."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            end = i + 1
            while end < n and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            out.append(text[i : end + 1])
            i = end + 1
        elif text.startswith("//", i):
            i = text.find("\n", i) if "\n" in text[i:] else n
        elif text.startswith("/*", i):
            close = text.find("*/", i + 2)
            i = n if close < 0 else close + 2
        elif ch == ",":
            rest = i + 1
            while rest < n and text[rest] in " \t\r\n":
                rest += 1
            if rest >= n or text[rest] not in "]}":
                out.append(ch)
            i += 1
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def read_toml(path: Path) -> dict:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    try:
        return tomllib.loads(read_text(path))
    except tomllib.TOMLDecodeError as exc:
        raise DpError(f"parsing {path.name}: {exc} ({path})") from None
    except RecursionError:
        raise too_deep(path) from None


def table(data: Any, *keys: str) -> dict:
    """``data[k1][k2]…`` when every level is a table, else ``{}``."""
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data if isinstance(data, dict) else {}


def first_existing(directory: Path, names: Sequence[str]) -> Path | None:
    """The first of ``names`` that is a regular file in ``directory``."""
    for name in names:
        candidate = directory / name
        if candidate.is_file():
            return candidate
    return None


_ASK_TOOLS = contextvars.ContextVar("dp_ask_tools", default=False)


@contextlib.contextmanager
def tools_asked():
    """Within this block the runners may ask make, just and Task to list their tasks.

    Those tools evaluate the project's file to list it, and evaluating a file
    can run commands it names. So only a command a person typed opens this
    block (``dp tasks``, ``dp make``, ``dp run``); the hook, the MCP server and
    everything else read the files (docs/security.md), which is the default
    so that no new caller can forget it.
    """
    token = _ASK_TOOLS.set(True)
    try:
        yield
    finally:
        _ASK_TOOLS.reset(token)


def asking_tools() -> bool:
    return _ASK_TOOLS.get()


def installed(executable: str) -> bool:
    import shutil

    return shutil.which(executable) is not None


def tool_listed_runner(
    directory: Path, project_root: Path, file_names: Sequence[str], tool: str, ecosystem: str, what: str, from_tool, from_file
) -> list[Runner]:
    """The runner of a tool that lists its own tasks (just, Task), if its file is here.

    The tool's own listing (``from_tool(directory, path)``) is used only when a
    person asked (``tools_asked``) and the tool is installed; otherwise the file
    is read (``from_file(path, project_root)`` → (tasks, what it could not
    tell)): that is enough to tell an agent what exists; running a task needs
    the tool anyway, and dp then says what to install.
    """
    from dp.paths import confined

    source = first_existing(directory, file_names)
    if source is None:
        return []
    unknown = ""
    if asking_tools() and installed(tool):
        tasks = from_tool(directory, source)
        reason = f"{source.name} found: {what} from {tool}'s own listing"
    elif confined(source, project_root) is None:  # a link out of the repository: not the project's file
        tasks, unknown = [], f"{source.name} leads outside the repository: not read"
        reason = f"{source.name} found: {what} read from the file ({tool} not run)"
    else:
        tasks, unknown = from_file(source, project_root)
        reason = f"{source.name} found: {what} read from the file ({tool} not run)"
    return [Runner(tool, ecosystem=ecosystem, reason=reason, root=directory, tasks=tasks, unknown=unknown)]


LIST_TIMEOUT = 30


def tool_listing(argv: Sequence[str], directory: Path, source: Path) -> dict:
    """The JSON a tool prints about ``source`` (``just --dump …``, ``task --list …``)."""
    from dp.process import run_process

    result = run_process(argv, cwd=directory, timeout=LIST_TIMEOUT, capture_limit=64 << 20)
    lines = result.output.strip().splitlines()
    problem = lines[-1] if lines else f"exit code {result.exit_code}"
    if result.timed_out:
        problem = f"no answer within {LIST_TIMEOUT} seconds"
    if result.exit_code == 0:
        start = result.output.find("{")  # skip any warning printed before the JSON
        try:
            listing = json.JSONDecoder().raw_decode(result.output, max(start, 0))[0]
            if isinstance(listing, dict):
                return listing
            problem = "its listing is not a JSON object"
        except json.JSONDecodeError as exc:
            problem = f"unreadable listing ({exc})"
    raise DpError(f"{argv[0]} cannot read {source}: {problem}")
