"""Kilo Code CLI (``@kilocode/cli``): dp as OpenCode's plugin inside the agent, its decisions made by dp's core.

Kilo Code CLI is a fork of OpenCode that keeps OpenCode's plugin hooks (``tool.execute.before``,
``tool.execute.after``, ``event``, ``experimental.chat.system.transform``) with the same inputs and outputs,
so dp serves it with the plugin it runs in OpenCode, installed in Kilo's own config directories (``install``),
and reads the same JSON from it (``dp.agents.plugin_hooks``): this adapter says only what is Kilo's
(docs/agents/kilo.md says what 7.7.7 was seen to do). Imported on every hook call of Kilo's: stdlib only.
"""

from dp.agents.plugin_hooks import PluginAgent


class Kilo(PluginAgent):
    name = "kilo"
    display = "Kilo Code"
    env_prefixes = ("KILO",)
    # 7.7.7 sets KILO_PID for every command it starts, and OpenCode's OPENCODE=1 (and AGENT=1) too.
    child_markers: tuple = (("KILO_PID", None),)
    marks_like = "opencode"
    # OpenCode's tools, and the ones 7.7.7 offers the model besides (its own names: dp has none for them).
    tool_names = {**PluginAgent.tool_names, **{tool: tool for tool in (
        "background_process", "board_post", "board_read", "cancel_wakeup", "kilo_local_recall", "schedule_wakeup")}}


ADAPTER = Kilo
# The session-start JSON this agent sends its hook (as observed in its binary; the tests send it).
SESSION_START_SAMPLE = {"hook_event_name": "session.start", "session_id": "ses_1"}
