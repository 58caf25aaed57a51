"""The text of a block: the correction a tool-name alias answers with when it has no message of its own.

Its own module because both ways a call is blocked say it: the gate (dp.hook, with no store opened) and
the full path (dp.hook.call); the gate's block loads this and the notes, not the full path's modules.
"""

from __future__ import annotations


def correction(event, alias) -> str:
    """``X is not a valid tool. Use Y instead.``, Y in the agent's own name, and the call's
    arguments the agent's Y names otherwise (``, with path (not file_path)``)."""
    agent, to_name, renamed = event.agent, alias.to_name, []
    if agent is not None:
        if agent.is_own_tool(to_name) or to_name in agent.tool_names.values():
            canonical = agent.canonical(to_name)  # the agent's own name or dp's: no other adapter is loaded
        else:
            from dp.agents import canonical_anywhere

            canonical = canonical_anywhere(to_name)
        to_name = agent.agent_tool(canonical)
        if isinstance(event.tool_input, dict):
            renamed = agent.renamed_arguments(canonical, event.tool_input)
    arguments = ", with " + ", ".join(f"{new} (not {old})" for old, new in renamed) if renamed else ""
    return f"{event.agent_tool} is not a valid tool. Use {to_name} instead{arguments}."
