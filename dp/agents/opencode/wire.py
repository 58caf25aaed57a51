"""OpenCode (``opencode-ai``): dp as a plugin inside the agent, its decisions made by dp's core.

OpenCode has no hook commands in its settings; its extension point is a
JavaScript/TypeScript plugin that runs inside the agent (``plugin/dp.ts`` here,
installed by ``dp init --agent opencode`` into ``~/.config/opencode/plugin/``
or a project's ``.opencode/plugin/``, see ``install``). The plugin decides
only whether to ask dp: for a call dp's hook gate (dp.hook.gate ``door``) says a
rule or paving could concern it runs ``pave-check --agent opencode``, and for a
failure and the Bash calls just after it ``dp-capture --agent opencode``, with the
small JSON this module reads, and does what the answer says. So the rules, paving, tool-name
corrections and capture are dp's one copy, as for every other agent.

What OpenCode 1.18.33 does, observed in the real binary (``opencode run``):

* ``tool.execute.before`` runs before the tool's own ``execute``, with the
  model's arguments as ``output.args``; changes made to that object in place
  are what runs, what OpenCode's transcript records, *and what the model's own
  history shows* as its call. The permission check (``permission`` in
  ``opencode.json``) happens inside ``execute``, on the changed arguments: a
  command the user allowed (``"grep *": "allow"``), rewritten into one they
  denied, is denied — so a rewrite never runs where the rewritten command
  would not have, and dp rewrites rather than refusing. Nothing tells the
  model about the change, so the plugin appends dp's note to the result the
  model reads (``tool.execute.after`` may change ``output.output``).
* An error thrown from ``tool.execute.before`` fails the call; the model
  reads the error's message as the tool's result. That is how dp blocks and
  refuses ({"error": text}).
* A tool name OpenCode does not have (``read_file``) becomes a call of its
  ``invalid`` tool (``args: {tool, error}``), and *that* goes through
  ``tool.execute.before``: the plugin sees the made-up name, so a tool-name
  alias blocks it with dp's correction. (A name that differs only in case,
  ``Read``, OpenCode itself runs as ``read``.)
* ``tool.execute.after`` fires only when ``execute`` returned: a shell
  command that exits non-zero is a success there (``metadata.exit``), but a
  tool that throws (a missing file, a refused permission, dp's own block)
  fires no after-hook. Those reach the plugin's ``event`` hook as a
  ``message.part.updated`` whose tool state is ``error``; the plugin hands
  them to dp-capture as ``tool.error``.
* ``experimental.chat.system.transform`` runs before every model request:
  the corrections up front go into the system prompt there.

The JSON between the plugin and dp (``hook_event_name`` is the plugin's own
name for the moment it calls dp)::

    → {"hook_event_name": "tool.execute.before", "tool", "args", "session_id", "call_id", "cwd"}
    ← {"args": {...}, "note": "..."}   run these arguments; tell the model the note after the result
    ← {"error": "..."}                 refuse the call with this text
    ← {"note": "..."}                  advice only, said after the result
    → {"hook_event_name": "session.start", "session_id", "cwd"}
    ← {"system": "..."}                added to the system prompt of the session
    → {"hook_event_name": "tool.execute.after", ..., "output", "exit"}   (dp-capture)
    ← {"note": "..."}                  after a failed command: a learned answer, added to its result
    → {"hook_event_name": "tool.error", ..., "error"}                    (dp-capture)

Imported on every hook call of OpenCode's: stdlib only.
"""

from dp.agents.plugin_hooks import BEFORE, INVALID_TOOL, UNAVAILABLE, PluginAgent

__all__ = ["BEFORE", "INVALID_TOOL", "UNAVAILABLE"]


class OpenCode(PluginAgent):
    name = "opencode"
    display = "OpenCode"
    env_prefixes = ("OPENCODE",)
    child_markers = (("OPENCODE", "1"),)  # 1.18.33 sets it (and OPENCODE_PID, AGENT=1) for every command
    # Its tools and their arguments: OpenCode's own, ``PluginAgent.tool_names`` and ``tool_args``.


ADAPTER = OpenCode
# The session-start JSON this agent sends its hook (as observed in its binary; the tests send it).
SESSION_START_SAMPLE = {"hook_event_name": "session.start", "session_id": "ses_1"}
