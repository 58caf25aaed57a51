"""An agent's answer read back in dp's terms: the inverse of ``Agent.answer`` for a before-tool event.

``dp init``'s demonstration and ``dp doctor`` run the installed hook on the agent's own sample payload
(its "hooks" role's ``sample_payload``) and read what it printed through that role's ``read_answer``, so
they prove the very command the agent starts. Not on the hook's path: ``dp.agents.hookbase`` and the
agents' ``hooks.py`` import this inside ``read_answer``.
"""


from dp.agents.base import ASK, BLOCK, CONTEXT, DENY, NOTHING, REWRITE, Decision
from dp.jsonobject import json_object as json_object  # re-exported: read_answer's reader


def hook_specific_answer(status: int, stdout: str, stderr: str, rewrites: bool = True) -> Decision:
    """What a before-tool answer in ``hookSpecificOutput`` JSON says (Claude Code's contract, which other agents'
    hooks speak too): exit 2 blocks with stderr, a ``deny`` refuses, ``updatedInput`` rewrites (only
    where the agent reads it: ``rewrites``), ``additionalContext`` tells the model."""
    if status == 2:
        return Decision(BLOCK, stderr.strip())
    specific = json_object(stdout).get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    decision, updated = specific.get("permissionDecision"), specific.get("updatedInput")
    # A rewrite under `--permission ask` carries "ask" beside its updatedInput: still a rewrite (the
    # person is asked about the rewritten call); "ask" alone puts the call itself to the person.
    if decision == "deny" or decision == "ask" and not isinstance(updated, dict):
        return Decision(DENY if decision == "deny" else ASK, str(specific.get("permissionDecisionReason") or ""))
    context = specific.get("additionalContext")
    context = context if isinstance(context, str) else ""
    if rewrites and isinstance(updated, dict):
        return Decision(REWRITE, context, updated)
    return Decision(CONTEXT, context) if context else Decision(NOTHING)
