"""pave-check: the hook that enforces the aliases, in every agent.

An agent runs it before tool calls with its hook JSON on stdin; the agent's
adapter (``--agent``, default Claude Code; dp/agents/) reads that payload
into a neutral event and writes the decision made here in the agent's output
contract. Everything in this module sees only the event: payload in,
decision out. Outcomes, as Claude Code sees them (PreToolUse):

* tool-name alias → exit 2, the correction on stderr (the call is blocked);
* a rule changes the input → exit 0 and one JSON object whose
  ``updatedInput`` is the whole original input with the corrected fields
  (or, with ``--mode advise``, a deny carrying the corrected call);
* anything else — no rule, a rule that changes nothing, bad input, a missing
  or unreadable store, any internal error, running out of time → exit 0 and
  no output, so the call goes ahead untouched (fail open);
* SessionStart / PostToolBatch → the corrections as ``additionalContext``
  (at session start; after a batch where Claude Code rejected an aliased
  tool name it does not know — see dp/hook/events.py).

This module is imported on every tool call: it stays stdlib-only and parses
its options by hand. Bash parsing, Jinja2 and the rule logic are imported
only when a rule could apply.
"""

import sys

from dp.agents.base import AFTER_BATCH, CONTEXT, NOTHING, SESSION_START

MAX_INPUT_BYTES = 1 << 20
# The one timing constant: the timeout ``dp init`` / ``dp pave --hook``
# install (seconds; Claude Code kills the hook past it). Everything the hook
# does itself ends well before, so it always answers rather than being killed.
HOOK_TIMEOUT_SECONDS = 5
# The one wall-clock budget of a run, from the first byte read to the answer
# (reading stdin, decoding the JSON, the word scan, the store and its wait,
# paving, the rewrite): past it the hook exits 0 with no output, so the call
# goes ahead untouched, whatever the input. Python's start-up and writing the
# answer fit in what is left of the installed timeout.
WALL_CEILING_SECONDS = HOOK_TIMEOUT_SECONDS * 0.6
# The CPU time a run may use inside that ceiling (a runaway parse ends here
# even when the machine is idle).
TIME_BUDGET_SECONDS = 2.0
# Every dp hook reads its payload within this long (``read_stdin``): an agent writes it and closes
# stdin at once; a writer that never closes it gets the hook's fail-open answer, not a wait.
STDIN_SECONDS = WALL_CEILING_SECONDS
# Above this many distinct words, ask the store in chunks (SQL variable limits).

USAGE = """usage: pave-check [--agent NAME] [--db PATH] [--permission none|ask|allow] [--mode rewrite|advise] [--verbose]

The hook dp installs into coding agents (Claude Code by default; --agent
gemini for Gemini CLI): reads the hook JSON on stdin, blocks tool-name
aliases, rewrites tool input by the alias rules (JSON on stdout).
With --verbose (and always with --mode advise) a command dp left as typed
because it could not translate it exactly carries a note saying why; with
--verbose, stderr also says why a call was let through untouched (input it
ignores, no store, no rule, a rule's program not on PATH, an internal error).
An unknown --agent is said on stderr. Unknown or malformed options are
ignored; every error lets the call through (exit 0).

Example hook command:  pave-check --db ~/.dp/dp.db --permission none
"""


class Options:
    __slots__ = ("agent", "db", "permission", "mode", "verbose", "said", "acted", "shadowed")

    def __init__(self):
        self.agent = None  # dp.agents.DEFAULT
        self.db = None
        self.permission = "none"
        self.mode = "rewrite"
        self.verbose = False
        self.said: list = []  # why the call was let through untouched (stderr under --verbose)
        self.acted: list = []  # what dp did to the call: (rule, its source, program rewritten away, program written)
        self.shadowed: list = []  # what its shadow rules would have done, in the same form (dp alias --shadow)

    def say(self, why: str) -> None:
        """Note why the hook lets a call through untouched: printed on stderr under --verbose only,
        so a person debugging the hook sees every silent path and an agent never does."""
        if self.verbose:
            self.said.append(why)

    @property
    def explains(self) -> bool:
        """Whether notes about commands left as typed are shown."""
        return self.verbose or self.mode == "advise"


def parse_options(argv) -> Options:
    """``--name value`` or ``--name=value``; anything unknown or invalid is ignored.

    An option missing its value never swallows the option after it
    (``--permission --mode advise`` still advises).
    """
    options = Options()
    choices = {"--permission": ("none", "ask", "allow"), "--mode": ("rewrite", "advise")}
    i = 0
    while i < len(argv):
        name, has_value, value = str(argv[i]).partition("=")
        if name == "--verbose" and not has_value:
            options.verbose = True
        elif name in ("--agent", "--db", "--permission", "--mode"):
            if not has_value:
                if i + 1 >= len(argv) or str(argv[i + 1]).startswith("--"):
                    i += 1
                    continue  # no value: ignore this option, not the next one
                i += 1
                value = str(argv[i])
            if name in ("--db", "--agent"):
                if value:
                    setattr(options, name[2:], value)
            elif value in choices[name]:
                setattr(options, name[2:], value)
        i += 1
    return options


def main(argv=None) -> int:
    """Console entry point; the return value is the exit status (0, or 2 to block).

    The whole run, stdin to answer, is under one limit (``WALL_CEILING_SECONDS``,
    ``TIME_BUDGET_SECONDS``; dp.shell.guard): past it the call goes ahead untouched.
    """
    args = sys.argv[1:] if argv is None else list(argv)
    if args and args[0] in ("-h", "--help"):
        sys.stdout.write(USAGE)
        return 0
    options = parse_options(args)
    try:
        from dp.shell.guard import deadline

        with deadline(TIME_BUDGET_SECONDS, WALL_CEILING_SECONDS):
            status, stdout, stderr = run(options, read_stdin(MAX_INPUT_BYTES))
    except BaseException as error:  # fail open: never break the agent's session; out of time too
        if not options.verbose:
            return 0
        status, stdout, stderr = 0, "", ""
        options.say(_failure(error))
    if status == 0:  # exit 2's stderr is the correction the agent reads: nothing is added to it
        stderr += "".join(f"pave-check: {why}\n" for why in options.said)
    try:
        for stream, text in ((sys.stdout, stdout), (sys.stderr, stderr)):
            if text:
                binary = getattr(stream, "buffer", None)
                if binary is None:  # a text-only stream (an embedding test harness)
                    stream.write(text)
                    stream.flush()
                else:
                    binary.write(text.encode("utf-8"))
                    binary.flush()
    except BaseException:
        return 0
    return status


def _failure(error: BaseException) -> str:
    """Why a run that raised lets the call through (--verbose)."""
    from dp.shell.guard import Timeout

    if isinstance(error, Timeout) and error.args:
        return f"{error.args[0]}: the call goes ahead as typed"
    if isinstance(error, Timeout):
        return (f"out of time ({TIME_BUDGET_SECONDS:g} s of CPU or {WALL_CEILING_SECONDS:g} s in all): "
                "the call goes ahead as typed")
    return f"internal error ({type(error).__name__}: {error}): the call goes ahead as typed"


def read_stdin(limit: int) -> bytes | None:
    """The one read of a hook's payload, for every dp hook (pave-check, dp-capture): at most ``limit``
    bytes (None past it), within ``STDIN_SECONDS``. A writer that never closes stdin gets
    ``dp.shell.guard.Timeout`` ("stdin still open …") after that, and the hook fails open."""
    from dp.shell.guard import Timeout, deadline

    try:
        with deadline(STDIN_SECONDS, STDIN_SECONDS):
            data = sys.stdin.buffer.read(limit + 1)
    except Timeout:
        raise Timeout(f"stdin still open after {STDIN_SECONDS:g} s") from None
    return None if len(data) > limit else data


def run(options: Options, data: bytes | None) -> tuple[int, str, str]:
    """Decide the hook's answer: (exit status, stdout, stderr). Raises on internal errors.

    The agent's adapter reads the payload and writes the answer (dp/agents/); between
    the two, everything here works on dp's neutral event and decision alone.
    """
    if not data:
        options.say(f"input over {MAX_INPUT_BYTES >> 20} MiB: not read" if data is None else "no input on stdin")
        return 0, "", ""
    import json

    from dp.agents import UnknownAgent, get

    try:
        payload = json.loads(data.decode("utf-8"))
    except ValueError as error:
        options.say(f"input is not JSON ({error}): the call goes ahead as typed")
        return 0, "", ""
    if not isinstance(payload, dict):
        options.say(f"input is not a JSON object (a {type(payload).__name__}): the call goes ahead as typed")
        return 0, "", ""
    try:
        agent = get(options.agent)
    except UnknownAgent as error:  # a mistake in the hook command: said even without --verbose
        return 0, "", f"pave-check: {error}; every call goes ahead as typed until --agent in the hook command is fixed\n"
    event = agent.read_event(payload)
    if event is None:
        hook = payload.get("hook_event_name")
        options.say(f"{agent.display} sent no tool call dp acts on" + (f" (hook event {hook!r})" if hook else ""))
        return 0, "", ""
    event.agent = agent
    return agent.answer(event, decide(options, event))


def decide(options: Options, event):
    """dp's decision for one neutral event (``dp.agents.base.Event``): a ``Decision``. Most calls end at the
    gate (dp.hook.gate), having imported nothing more; the others take the full path (dp.hook.call)."""
    from dp.agents.base import PRE_TOOL, Decision

    if event.kind in _CONTEXT_EVENTS:
        from dp.hook.session import context

        return Decision(CONTEXT, context(options, event))
    if event.kind != PRE_TOOL:
        options.say(f"{event.hook}: pave-check acts before a tool runs (dp-capture handles this event)")
        return Decision(NOTHING)
    asked = _for_the_person(event)
    if asked is not None:
        return asked
    words = _command_words(event)
    if not options.verbose:  # --verbose takes the full path, which says why a call went ahead
        from dp.hook import gate

        known = gate.answer(options.db, event, words)
        if known == gate.NOTHING:
            return Decision(NOTHING)
        if known is not None:
            from dp.agents.base import BLOCK
            from dp.hook.correction import correction
            from dp.hook.notes import blocked, noted

            options.acted.append(blocked(known))
            return noted(options, event, Decision(BLOCK, known.message or correction(event, known)))
    from dp.hook.call import Call
    from dp.hook.call import decide as decide_call
    from dp.hook.notes import noted

    with Call(options, event, words) as call:
        return noted(options, event, decide_call(call))








# The word every name of dp holds (dp.widening.MENTION, which tests/test_widening.py holds it to): a
# Bash call without it is answered without importing more.
_MENTION = "dp"


def _for_the_person(event):
    """A Bash call that may run a dp command that widens what dp does (dp.widening): the person
    decides it, not the agent — the agent's own question to them where it has one, else a refusal
    that names the command to type in their own terminal (the adapter chooses, ``Agent.answer``).
    Before the gate and every rule, so it holds with no rule at all; None for any other call."""
    from dp.rules import BASH_PARAM, BASH_TOOL

    command = event.tool_input.get(BASH_PARAM) if isinstance(event.tool_input, dict) else None
    if event.tool != BASH_TOOL or not isinstance(command, str) or _MENTION not in command:
        return None
    from dp.widening import for_the_person, in_command

    found = in_command(command)
    if found is None:
        return None
    from dp.agents.base import ASK, Decision

    return Decision(ASK, for_the_person(found, event.cwd, command))


def _command_words(event):
    """The words of a Bash call's command that could name a program (dp.shell.words), read once
    for the gate and the full path (a 1 MiB command costs the scan a few hundred milliseconds);
    None for any other call."""
    from dp.rules import BASH_PARAM, BASH_TOOL

    command = event.tool_input.get(BASH_PARAM) if isinstance(event.tool_input, dict) else None
    if event.tool != BASH_TOOL or not isinstance(command, str) or not command:
        return None
    from dp.shell.words import command_words

    return command_words(command)


# Events answered with additionalContext only (dp/hook/session.py, its text dp/hook/events.py).
_CONTEXT_EVENTS = (SESSION_START, AFTER_BATCH)






































