"""The second guard: a dp command that widens what dp does acts only for the person, never inside an agent's tool call.

The hook (``dp.hook``) answers an agent's Bash call that names such a command
with the agent's own question to the person, or a refusal. It reads the
command's text, so a spelling built at run time (``$(printf d)p trust``) or a
script the call runs (a Makefile recipe, ``npm run setup``) gets past it. So the
command checks too, from the one list (``dp.widening``): started inside an
agent's tool call — the agent's own mark in its environment
(``Agent.child_markers``, observed in each binary), which every program the call
starts inherits — it asks on the person's terminal, or refuses with one line
saying to run it in their own terminal. A script that empties its environment
(``env -i``, ``sudo``'s reset) takes the mark with it, as a spelling built to
get past the hook may: against an agent set on that, its own permissions are the
boundary (docs/security.md).

It asks only on a controlling terminal that is not the command's own standard
input or output: a terminal the agent runs the command in is one its model may
type into (Codex CLI's ``write_stdin``), while one it merely inherited is the
person's, where the agent starts commands without one of their own. Every agent
observed (docs/agents/) starts its commands in a session of their own, with no
terminal at all: there the command refuses. A person typing the same command in
a terminal, with no agent around it, is not asked anything.
"""

from __future__ import annotations

import os

# How long the question on the person's terminal waits for an answer.
ANSWER_SECONDS = 300


def guard(args: list[str]) -> None:
    """Return when ``dp ARGS`` may run here; raise DpError (nothing done) when it widens what dp does
    and was started inside an agent's tool call, unless the person said yes on their terminal."""
    from dp.widening import classify

    found = classify(args)
    if not found.widens:
        return
    agent, mark = inside_agent()
    if agent is None or _asked(f"{agent.display} started `{' '.join(found.words)}`, which {found.why}.\n"
                               f"Let it? Only you can decide this. [y/N] "):
        return
    from dp.errors import DpError

    raise DpError(f"`{found.name}` {found.why}, and it was started inside {agent.display}'s tool call ({mark}), "
                  "with no terminal of yours to ask on: only the person decides that; run it in your own terminal "
                  "(nothing was changed)")


def inside_agent() -> tuple:
    """``(agent, "NAME=value")`` when this process's environment carries an agent's child marker;
    ``(None, "")`` otherwise. Only its own: a suite of tests an agent started strips the marks
    (conftest.py) and runs dp as a person's terminal does, which the initial environments of the
    processes above it (``/proc/PID/environ``) would not let it."""
    from dp.agents import marking

    return marking(os.environ)


def _asked(question: str) -> bool:
    """Whether the person said yes on their terminal; False without one the agent cannot type into."""
    if _runs_in_its_terminal():
        return False  # the terminal the command runs in: the agent's, which it may type into
    try:
        tty = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:
        return False  # no controlling terminal: the agents observed start every command so
    try:
        os.write(tty, question.encode())
        return _read_answer(tty).strip().lower() in ("y", "yes")
    finally:
        os.close(tty)


def _runs_in_its_terminal() -> bool:
    """Whether a standard stream of this process is its controlling terminal (``/dev/tty`` is a
    device of its own, so the terminal is named by ``/proc/self/stat``'s tty_nr; where that cannot
    be read, any terminal on a standard stream counts)."""
    try:
        with open("/proc/self/stat", "rb") as handle:
            stat = handle.read(4096)
        controlling = int(stat[stat.rfind(b")") + 2:].split()[4])  # after "pid (comm) ": state ppid pgrp session tty_nr
    except (OSError, ValueError, IndexError):
        controlling = None
    for stream in (0, 1, 2):
        try:
            if os.isatty(stream) and (controlling is None or os.fstat(stream).st_rdev == controlling):
                return True
        except OSError:
            continue
    return False


def _read_answer(tty: int) -> str:
    """One line from the terminal, or '' when none comes within ``ANSWER_SECONDS``."""
    import select

    data = b""
    while not data.endswith(b"\n") and len(data) < 64:
        ready, _, _ = select.select([tty], [], [], ANSWER_SECONDS)
        chunk = os.read(tty, 64) if ready else b""
        if not chunk:
            break
        data += chunk
    return data.decode("utf-8", "replace")
