"""Why a call no rule and no paving acts on went ahead, said under ``pave-check --verbose`` only: it parses the
command (dp.shell.segment), which no other call that ends in "nothing" pays for.
"""

from __future__ import annotations

import os

from dp.paving import WORDS
from dp.paving.switch import off_reason
from dp.shell.segment import simple_commands
from dp.store.read import db_location


def say_no_rule(call, command) -> None:
    """Why a call no rule and no paving acts on went ahead (--verbose only: it parses the command)."""
    options, event, words = call.options, call.event, call.words
    if event.tool == "Bash" and not command:
        options.say("empty command: nothing to rewrite")
        return
    if not words:
        options.say(f"no rule for {event.agent_tool}")
        return
    programs = list(dict.fromkeys(command.program for command in simple_commands(command) or []))
    looked_up = [program for program in programs if program in words or program.rpartition("/")[2] in words]
    options.say("no rule for " + (", ".join(looked_up) if looked_up else "the command's words"))
    missed = [program for program in programs if program not in looked_up]
    if missed:  # "no rule" only for what was asked: a program the word scan missed may have one
        options.say(f"not looked up: {', '.join(missed)} (dp's word scan missed it: please report)")
    if WORDS.intersection(words):
        reason = off_reason(os.path.dirname(db_location(options.db)), event.cwd)
        options.say(reason or "project paving: no project here, or nothing to pave in it")
