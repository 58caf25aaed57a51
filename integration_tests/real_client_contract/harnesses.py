"""Each agent's harness for the shared real-client promises: how a test speaks to that agent.

A promise several agents make (a corrupt store fails open, a rewrite never widens what the agent may
run …) is one test function in this folder, parametrised over the ``Harness`` of every agent making
it. A harness is small: the user fixture of the agent's suite (real_client_users.py), its scripted
shell call, how to run one session, and how to read what the model was shown for one call — the
agent's own words for these, taken from its suite's support module. Each agent's harness lives in its
own suite, ``contract.py`` (``HARNESS``), next to the agent, and is found by the registry's names:
adding an agent adds no line here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from dp.agents import names


@dataclass(frozen=True)
class Suite:
    """How an agent's user is made (real_client_users.py): the user class, the pinned binary (installed once
    per machine, a loud skip where npm cannot give it), and the binary fixture's name when it is not the
    harness's fixture (``<program>_binary``)."""

    user_class: type
    binary: Callable[[], Path]
    program: str = ""


@dataclass(frozen=True)
class Harness:
    """One agent as the shared promises drive it.

    ``fixture``: the user fixture; ``init``: what ``dp init`` gets besides ``--json``; ``shell``:
    a scripted shell call; ``result(session, call)``: the call's own result as the model read it;
    ``shown(session, call)``: everything the model read about the call (its result and any hook
    text beside it); ``history(session, call)``: the call's input as the model's own history keeps
    it, where the agent's conversation says (None elsewhere). ``rewrites``: a Bash rewrite runs in
    place (else dp refuses with the corrected command and the model reissues it). ``acted``: texts
    the model reads only when dp or a hook acted on a call. ``permit``: the run options with which
    the user's own permission rules allow exactly the command ``name`` (None: the agent has no such
    rules the tests drive); ``refused``: how the agent's result for a call its rules refuse begins.
    ``output_first``: a call's result begins with the command's output; ``untouched(session, call)``:
    the agent's own record says no hook touched the call; ``hook_log``: what the binary prints when a
    pre-call hook ran and let the call be; ``output_prefix``: what the agent puts before a command's
    output in its result; ``rewritten``: the agent's own line in a result whose call a hook changed;
    ``exit_shown``: how a result names a command's exit code (``{}``); ``captured_exactly``: a captured
    call's input is the command alone; ``captured_error``: how a captured error begins (``{}``: the code);
    ``refusing``: the arguments of a session where dp refuses a rewrite with the corrected command (the
    agent would not let it run unasked), ``refusal`` how the agent's result then begins before dp's
    text and ``refusal_why`` what dp says of the agent there. ``everything(session)``: all the text
    the model was shown; ``answer_mark``: how an answer after a failure stands in the failed call's
    result (``{answer}``: dp's note), ``answer_last``: it ends the result; ``answer_after_result``: it
    comes after the result instead. ``tool_call(name, arguments)``: a scripted call of any tool;
    ``opening(session)``: what the model read before its first turn; ``read_tool``: the agent's name
    for Claude Code's ``Read``; ``made_up_answer``: the whole result of a made-up tool name aliased to it.
    ``shell_tool``: the name a tool-name alias of the agent's shell tool is written with; ``blocked``: the
    result of a call such an alias blocks (``{message}``: the alias's, ``{command}``: the call's).
    ``unsandboxed``: the run options under which the agent's commands could write anywhere, the person's
    store included (None: its usual ``run_args`` already can); ``asking_ends``: the agent's question to
    the person ends a headless session (one session per such call); ``asked(session, call)``: what the
    person and the model read of a call the hook put to the person (None: ``shown``). ``like``: the agent this
    one is built on (Kilo Code on OpenCode), whose every promise it makes too: a test naming that agent runs
    for this one as well.
    """

    agent: str
    fixture: str
    shell: Callable[[str], dict]
    result: Callable
    shown: Callable
    init: tuple = ()
    history: Callable | None = None
    rewrites: bool = True
    acted: tuple = ("dp:",)
    hook_log: str = ""
    permit: Callable[[str], tuple[tuple, dict]] | None = None
    refused: str = ""
    output_first: bool = False
    untouched: Callable | None = None
    output_prefix: str = ""
    rewritten: str = ""
    exit_shown: str = ""
    captured_exactly: bool = False
    captured_error: str = ""
    refusing: tuple | None = None
    refusal: str = ""
    refusal_why: str = ""
    everything: Callable | None = None
    answer_mark: str = ""
    answer_after_result: bool = False
    answer_last: bool = False
    tool_call: Callable[[str, dict], dict] | None = None
    opening: Callable | None = None
    read_tool: str = ""
    made_up_answer: str = ""
    shell_tool: str = ""
    blocked: str = ""
    run_args: tuple = field(default=())
    unsandboxed: tuple | None = None
    asking_ends: bool = False
    asked: Callable | None = None
    like: str = ""

    def run(self, user, turns, *args, **options):
        """One session of the agent's real binary with the scripted ``turns``."""
        return user.run(turns, *self.run_args, *args, **options)

    def run_unsandboxed(self, user, turns):
        """One session in which nothing but dp could stop the agent's commands from writing the store."""
        return user.run(turns, *(self.run_args if self.unsandboxed is None else self.unsandboxed))


def tool_result_text(session, call):
    """A call's result as Claude Code's and Copilot CLI's sessions keep it (by the call's id)."""
    return session.tool_result(call["id"])["text"]


def oldtool_rule(user, *init_args) -> None:
    """dp installed and one rule, ``oldtool`` → ``newtool``: both programs on PATH, each leaving a file
    named after it in the directory it ran in, so a test sees which one really ran."""
    user.init(*init_args)
    user.dp("alias", "--cmd", "oldtool", "--replace", "newtool")
    user.program("newtool", 'echo "{name} ran:" "$@"; touch "$PWD/newtool-ran"')
    user.program("oldtool", 'echo "{name} ran:" "$@"; touch "$PWD/oldtool-ran"')


def _all() -> tuple:
    """Every served agent's harness, in the registry's order: its suite's ``contract.HARNESS``."""
    from real_client_users import suite

    return tuple(suite(name).HARNESS for name in names())


def agents(*names: str, where: Callable[[Harness], bool] = lambda harness: True) -> list:
    """The harnesses of the agents named (all of them without names; an agent built on one named too, its
    harness's ``like``) that ``where`` accepts, as pytest parameters with their ids."""
    import pytest

    chosen = [harness for harness in _all()
              if (not names or harness.agent in names or harness.like in names) and where(harness)]
    return [pytest.param(harness, id=harness.agent) for harness in chosen]
