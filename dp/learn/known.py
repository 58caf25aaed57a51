"""The answer at the first failure: what dp knows now about this machine and this project (issue 50).

Learning (``dp.learn.generalise``) needs the same change in two sessions, and across machines and
repositories that rarely happens; yet at the moment a call fails dp often already knows the answer.
``known`` asks, in this order, and gives the first answer found, or none:

* **the agent's own tool** for a shell command that is another agent's tool (``apply_patch: command not
  found``): the agent's adapter names its tools (``dp.agents.base.Agent.own_tools``);
* **a literal slip**, a program glued to its first word (``find.``, ``cd..``, ``ls-la``: ``dp.learn.onpath.slip``);
* **the project's wrapper** of a missing program (``./mvnw``, ``node_modules/.bin``, ``.venv/bin``:
  ``dp.learn.inproject.wrapper``), only in a repository the person trusts;
* **a table read backwards** where the typed program is missing and the other is on PATH (``rg`` → ``grep``,
  ``fd`` → ``find``): the exact translation (``dp.learn.tables.translated``), or nothing; unless the program
  is there under its distribution's name (``fdfind``), which the next answers with;
* **another name** of a missing program on PATH (``python3``, ``pip3``, ``python3 -m pip``, ``fdfind``), or
  ``od`` for a dump ``xxd`` or ``hexdump`` would have made (``dp.learn.onpath``: the one answer that lists
  PATH's directories, for versioned names);
* **the project's tasks** after a runner said the task the call named does not exist
  (``dp.learn.inproject.missing_task``).

Every answer is one the program or file is there for, never a guess: two candidates, a flag without an
exact meaning, an untrusted repository's program give none. Its corrected call is the failed call with
that one change made in place (``dp.shell.segment`` spans: every other byte as typed), holding no control
character (``dp.learn.answer.plain``), and its text says where the knowledge came from. The other guards of
learned answers (``dp.learn.carry``: no downloader, no pipe into a shell, no program brought in front)
hold by construction: each change is a name of the program that failed (another name of it, its
wrapper, its translation through a shipped table, the same characters spaced), a task name the
project's own runner file defines, or ``npx`` in front of a program the trusted project's
``node_modules/.bin`` has. Each is keyed like the learned answer of the same change (``key``), so a
session hears it once, whichever way dp found it.

Runs inside ``dp-capture`` after a failed call, stdlib only, on the failed call's time: a failure whose
class none of these mends (a test that failed, a file not found) costs one set lookup, and what answers
imports only what it needs (``bench/run_capture_bench.py``'s answered cases).
"""

from __future__ import annotations

import os

from dp.learn.answer import COMMAND, LITERAL, PATH, RECIPE
from dp.shell.programs import on_path

# Where an answer's knowledge came from (the bench's and dp suggest's kinds).
TOOL, SLIP, WRAPPER, SIBLING, TABLE, TASK = "tool", "slip", "wrapper", "sibling", "table", "task"
SOURCES = (TOOL, SLIP, WRAPPER, SIBLING, TABLE, TASK)
NOT_FOUND, NO_SUCH_FILE = "command not found", "no such file"


class Known:
    """One answer from knowledge: its ``source``; the change in dp.learn's words (``kind``, ``command``,
    ``from_text``, ``to_text``); the corrected call (``called``, '' when the answer names none); the text."""

    __slots__ = ("source", "kind", "command", "from_text", "to_text", "called", "text")

    def __init__(self, source, kind, command, from_text, to_text, called, text):
        self.source, self.kind, self.command = source, kind, command
        self.from_text, self.to_text, self.called, self.text = from_text, to_text, called, text

    @property
    def key(self) -> tuple:
        """What a session hears once: the change, as a learned answer of it is keyed too."""
        return self.kind, self.command, self.from_text, self.to_text

    @property
    def leads_to(self) -> str:
        """The program the corrected call runs, which the agent's next call is compared with (``dp stats``);
        '' for an answer that names none (a tool, the tasks' names)."""
        if not self.called:
            return ""
        return self.command if self.kind == TASK else self.to_text.split(" ", 1)[0]


class Failure:
    """The failed call as the answers read it: the whole ``command``, the ``program`` that failed (its
    shape's command word), the error and its class, the working directory, the agent, and whether the
    person trusts a repository (``trusts(real root)``)."""

    __slots__ = ("command", "program", "error", "klass", "cwd", "agent", "trusts")

    def __init__(self, command, program, error, klass, cwd, agent, trusts):
        self.command, self.program, self.error, self.klass = command, program, error or "", klass
        self.cwd = cwd if isinstance(cwd, str) and os.path.isabs(cwd) else None
        self.agent, self.trusts = agent, trusts


def known(failure: Failure) -> Known | None:
    """What dp knows that answers ``failure``, or None."""
    if failure.klass == NOT_FOUND or failure.klass == NO_SUCH_FILE and "/" in failure.program:
        return _missing(failure)
    from dp.learn.inproject import MISSING_TASK

    return _task(failure) if failure.program in MISSING_TASK else None


def _missing(failure: Failure) -> Known | None:
    from dp.shell.programs import BUILTINS

    program = failure.program
    if not program or program in BUILTINS or on_path(program):
        return None  # it is here: what was not found is something else
    for finder in (_tool, _slip) if failure.klass == NO_SUCH_FILE else (_tool, _slip, _wrapper, _table, _sibling):
        found = finder(failure)
        if found is not None:
            return found
    return None


def _tool(failure: Failure) -> Known | None:
    tools = failure.agent.own_tools(failure.program) if failure.agent is not None else ()
    if not tools:
        return None
    names = " and ".join(tools)
    text = (f"dp: {failure.program} is no program on this machine: it is an agent's tool, not a shell command. "
            f"In {failure.agent.display} call the {names} tool{'s' if len(tools) > 1 else ''} instead.")
    return Known(TOOL, TOOL, failure.program, failure.program, tools[0], "", text)


def _slip(failure: Failure) -> Known | None:
    if not any(char in failure.program[1:] for char in ".-/~"):
        return None  # nothing glued to the program (dp.learn.onpath.slip's first look, without its import)
    from dp.learn.onpath import slip

    found = slip(failure.program, failure.cwd)
    if found is None:
        return None
    spaced = " ".join(found)
    called = _renamed(failure.command, failure.program, spaced)
    text = (f"dp: {failure.program} is no program; the same characters with a space run {found[0]}, "
            f"which is here:\n{called}")
    return _checked(Known(SLIP, LITERAL, failure.program, failure.program, spaced, called, text))


def _wrapper(failure: Failure) -> Known | None:
    from dp.learn.inproject import wrapper

    found = wrapper(failure.program, failure.cwd) if failure.cwd is not None else None
    if found is None or not _trusted(failure):
        return None
    word, where = found
    to = f"{word} {failure.program}" if word == "npx" else word
    called = _renamed(failure.command, failure.program, to)
    text = (f"dp: {failure.program} is not on PATH; {where} has it (you trust this repository):\n{called}")
    return _checked(Known(WRAPPER, RECIPE if word == "npx" else PATH, failure.program, failure.program, to,
                          called, text))


def _trusted(failure: Failure) -> bool:
    from dp.layers.locate import repo_root

    root = repo_root(os.path.realpath(failure.cwd))
    return root is not None and bool(failure.trusts(root))


def _sibling(failure: Failure) -> Known | None:
    from dp.learn.onpath import DUMPERS, other_name, python_with

    program = failure.program
    if program in DUMPERS:
        return _dumped(failure)
    name = other_name(program)
    if name is not None:
        called = _renamed(failure.command, program, name)
        text = f"dp: {program} is not installed here; {name} is, another name of the same program:\n{called}"
        return _checked(Known(SIBLING, COMMAND, program, program, name, called, text))
    if program in ("pip", "pip3") and python_with("pip"):
        to = "python3 -m pip"
        called = _renamed(failure.command, program, to)
        text = f"dp: {program} is not installed here; python3 is, and its library has pip:\n{called}"
        return _checked(Known(SIBLING, RECIPE, program, program, to, called, text))
    return None


def _dumped(failure: Failure) -> Known | None:
    """``xxd``/``hexdump`` → ``od``: each call of the program in the command rewritten whole, or nothing."""
    from dp.learn.onpath import od_words
    from dp.shell.segment import simple_commands

    if not on_path("od"):
        return None
    found = [one for one in simple_commands(failure.command) or () if one.word.value == failure.program]
    edits = []
    for one in found:
        translated = od_words(failure.program, [arg.value for arg in one.args])
        end = one.args[-1].end if one.args else one.word.end
        if translated is None or any(arg.masked for arg in one.args) or \
                any(one.word.start < start < end for start, _ in one.redirects):
            return None
        words, operands = translated
        edits.append((one.word.start, end, " ".join(words + [one.args[i].raw for i in operands])))
    if not edits:
        return None
    called = _edited(failure.command, edits)
    text = (f"dp: {failure.program} is not installed here; od is, and shows the same dump (every byte in hex, "
            f"its offset, the printable characters) in its own layout:\n{called}")
    return _checked(Known(SIBLING, COMMAND, failure.program, failure.program, "od", called, text))


def _table(failure: Failure) -> Known | None:
    from dp.rules import tables
    from dp.shell.programs import OTHER_NAMES

    program = failure.program
    if program in OTHER_NAMES and on_path(OTHER_NAMES[program]):
        return None  # the same program under its distribution's name (fdfind for fd) answers: _sibling
    ending = os.path.basename(tables.path(f"-to-{program}"))  # how a table into it is named (….pairs)
    try:
        names = os.listdir(os.path.dirname(tables.path(ending)))
    except OSError:
        return None
    targets = [name[: -len(ending)] for name in names if name.endswith(ending)]
    present = [target for target in targets if on_path(target)]
    if len(present) != 1:
        return None
    from dp.learn.tables import translated

    target = present[0]
    called = translated(failure.command, program, target)
    if called is None or program in _programs(called):
        return None  # a flag without an exact meaning, or a call of it left as typed: nothing
    text = f"dp: {program} is not installed here; the same search with {target}, every flag translated by dp's table:\n{called}"
    # the table's words only, never an -exec (dp.rules.findexpr.translate_fd refuses fd's --exec): no code
    return _checked(Known(TABLE, COMMAND, program, program, target, called, text))


def _task(failure: Failure) -> Known | None:
    from dp.learn.inproject import MAX_LISTED, missing_task
    from dp.shell.segment import simple_commands

    if failure.cwd is None:
        return None
    commands = simple_commands(failure.command) or []
    directory = failure.cwd
    for one in commands:
        if one.word.value == failure.program:
            found = _named_task(one, failure, directory)
            if found is None:
                return None
            word, task = found
            tasks = missing_task(failure.program, task.value, failure.error, directory)
            if tasks is None:
                return None
            if tasks.fix is None:
                names = ", ".join(f"`{name}`" for name in tasks.names[:MAX_LISTED])
                text = f"dp: {tasks.file} has no {tasks.noun} `{task.value}`. Its {tasks.plural}, closest first: {names}."
                return Known(TASK, TASK, failure.program, task.value, "", "", text)
            called = _edited(failure.command, [(task.start, task.end, _quoted(tasks.fix))])
            text = f"dp: {tasks.file} has no {tasks.noun} `{task.value}`; it has `{tasks.fix}`:\n{called}"
            return _checked(Known(TASK, TASK, failure.program, task.value, tasks.fix, called, text))
        directory = _after_cd(one, directory)
        if directory is None:
            return None
    return None


def _named_task(one, failure: Failure, directory: str):
    """``(the runner's word, the task's word)`` of a call of a runner that names one task: ``npm run NAME``,
    ``npm test``, ``yarn NAME``, ``make NAME``, ``just NAME``, ``task NAME``; None for anything with options
    first."""
    args = one.args
    if not args or args[0].masked or args[0].value.startswith("-"):
        return None
    if failure.program in ("npm", "pnpm", "yarn"):
        if args[0].value in ("run", "run-script") and len(args) > 1 and not args[1].value.startswith("-"):
            return one.word, args[1]
        return (one.word, args[0]) if args[0].value in ("test", "start") or failure.program == "yarn" else None
    return one.word, args[0]


def _after_cd(one, directory: str) -> str | None:
    """The working directory after simple command ``one``: itself, or where a ``cd DIR`` went (None for a
    ``cd`` dp cannot follow: an option, a variable, ``-``)."""
    if one.word.value != "cd":
        return directory
    if len(one.args) != 1 or one.args[0].masked or one.args[0].value.startswith(("-", "~", "$")):
        return None
    return os.path.normpath(os.path.join(directory, one.args[0].value))


def _checked(found: Known) -> Known | None:
    """``found`` when it names a corrected call that holds no control or formatting character (the
    module's docstring says why the other guards hold by construction); else None."""
    from dp.learn.answer import MAX_COMMAND_CHARS, plain

    return found if found.called and plain(found.called, MAX_COMMAND_CHARS) else None


def _renamed(command: str, program: str, replacement: str) -> str:
    """``command`` with every simple command run by ``program`` run by ``replacement`` instead, in place;
    '' when dp cannot read where its commands are."""
    from dp.shell.segment import simple_commands

    words = [one.word for one in simple_commands(command) or () if one.word.value == program]
    if not words or any(word.masked or word.raw != word.value for word in words):
        return ""
    return _edited(command, [(word.start, word.end, replacement) for word in words])


def _edited(command: str, edits: list) -> str:
    for start, end, text in sorted(edits, reverse=True):
        command = command[:start] + text + command[end:]
    return command


def _programs(command: str) -> set:
    from dp.shell.segment import simple_commands

    return {one.word.value for one in simple_commands(command) or ()}


def _quoted(word: str) -> str:
    import shlex

    return shlex.quote(word)
