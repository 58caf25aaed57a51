"""What dp can do in an agent, as data: ``PROMISES`` (the table's rows, in order, with its words) and each
agent's ``promises.json`` beside its wire module, read by ``promises_of``. Never on the hook's path: the docs'
tables (``dp.agents.table``), ``dp init`` and ``dp doctor`` read it."""

from __future__ import annotations

import json
import os
import sys

# The promises, in the order the per-agent table shows them, with the words it uses.
PROMISES = (
    ("rewrite", "rewrites a call before it runs"),
    ("block", "blocks a call with a correction"),
    ("session_context", "states the corrections at session start"),
    ("after_context", "corrects after a call failed"),
    ("capture", "records failed calls"),
    ("tool_alias_block", "blocks a hallucinated tool name"),
)


class Promise:
    """Whether dp keeps one of ``PROMISES`` in an agent; ``how`` when it does, ``why`` not when it does not."""

    __slots__ = ("name", "kept", "note")

    def __init__(self, name: str, kept: bool, note: str = ""):
        self.name = name
        self.kept = kept
        self.note = note


def promises_of(agent) -> tuple:
    """One ``Promise`` per entry of ``PROMISES``, in that order, from the agent's ``promises.json``: ``{VERSION}``
    in a note is the wire module's ``VERSION`` (the release its facts were observed in)."""
    with open(os.path.join(os.path.dirname(__file__), agent.name, "promises.json"), encoding="utf-8") as file:
        rows = json.load(file)
    version = str(getattr(sys.modules[type(agent).__module__], "VERSION", ""))
    return tuple(Promise(row["promise"], row["kept"], row["note"].replace("{VERSION}", version)) for row in rows)
