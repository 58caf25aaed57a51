"""Factory Droid in the shared real-client contract (real_client_contract/): its user and its harness.

Its sessions run ``droid exec --auto low``, where Droid runs no rewritten command: dp refuses with the
corrected command and the model reissues it (``rewrites=False``, ``refusing``); in-place rewrites at
``--auto high`` are this suite's own tests."""

from __future__ import annotations

from real_client_contract.harnesses import Harness, Suite

from dp.live.openai_compat import tool_call
from real_client_droid import droid_install
from real_client_droid.droid_support import DroidUser, execute

SUITE = Suite(DroidUser, droid_install.binary)
HARNESS = Harness("droid", "droid", execute, lambda s, c: s.output(c), lambda s, c: s.shown(c),
                  history=lambda s, c: s.conversation.call(c["id"])["arguments"], rewrites=False,
                  acted=("dp:",), refusing=(), refusal="Error: ",
                  refusal_why="Droid runs a rewritten command only at --auto high",
                  everything=lambda s: s.conversation.all_text, tool_call=tool_call,
                  opening=lambda s: s.conversation.opening, read_tool="Read",
                  made_up_answer="Error: read_file is not a valid tool. Use Read instead, with file_path (not path).",
                  shell_tool="Execute", blocked="Error: {message}")
