"""The live demonstration ``dp init`` ends with.

It runs the hook command exactly as installed, but pointed at a throwaway
store holding two sample rules, so the user sees the real program at work
without their own store gaining anything — and only what the real client
does with it. Claude Code rejects a tool name it does not know (``read_file``)
itself, before any PreToolUse hook runs (observed in 2.1.330, see
dp/hook/events.py), so the demo shows how such an alias really reaches the
model: the corrections at session start, and the correction right after the
rejected call (PostToolBatch). The Bash rewrite is the PreToolUse call the
client does make.

Each scene is one real hook call with the payload the agent sends (its
adapter in dp/agents/ writes and reads the JSON); the report keeps them apart (``session_start``, ``correction``, ``rewrite``) so a
new way of reaching the model adds a scene, not a special case. ``block`` is
the PreToolUse answer for a tool name a client does send (an MCP tool, a
built-in): the hook must still block it, but it is not what happens to
``read_file`` in Claude Code, so ``dp init`` prints it only when it fails.
The session-start and correction scenes are Claude Code's (``REJECTS_UNKNOWN_TOOLS``);
other agents show the block as their adapter reads it.
"""

from __future__ import annotations

import shlex
import tempfile
from pathlib import Path

from dp.agents.base import BLOCK, CONTEXT, DENY, REWRITE
from dp.agents.settings import command_words
from dp.hook.events import UNKNOWN_TOOL_ERROR
from dp.install.hook import call, sample_payload
from dp.rules.model import BASH_PARAM, BASH_TOOL, COMMAND, Rule

BLOCK_RULE = Rule("read_file", "Read")
REWRITE_RULE = Rule("grep", "rg", BASH_TOOL, BASH_PARAM, "grep", COMMAND)
SAMPLE_COMMAND = "grep -n TODO src/app.py"


def with_store(command: str, db: Path) -> str:
    """``command`` with its ``--db`` option replaced by ``db``."""
    words = command_words(command)
    kept, skip = [], False
    for word in words:
        if skip:
            skip = False
        elif word == "--db":
            skip = True
        elif not word.startswith("--db="):
            kept.append(word)
    return shlex.join([*kept[:1], "--db", str(db), *kept[1:]])


def block_rule(agent=None) -> Rule:
    """The demonstration's tool-name alias: one that is a correction in ``agent``.

    ``read_file → Read`` is what models get wrong in Claude Code; in an agent
    whose Read *is* ``read_file`` (Gemini CLI) the mistake runs the other way.
    """
    if agent is None or agent.corrects(BLOCK_RULE.from_name, BLOCK_RULE.to_name):
        return BLOCK_RULE
    return Rule(BLOCK_RULE.to_name, agent.agent_tool(BLOCK_RULE.to_name))


def run(command: str, agent=None) -> dict:
    """Every scene through ``command`` (``agent``'s hook JSON); reports what the hook answered."""
    from dp.store import Store

    blocking = block_rule(agent)
    with tempfile.TemporaryDirectory(prefix="dp-demo-") as scratch:
        scratch_dir = Path(scratch)
        db = scratch_dir / "demo.db"
        with Store.open(db) as store:
            for rule in (blocking, REWRITE_RULE):
                store.set_rule(rule)
        demo_command = with_store(command, db)
        calls = {name: call(demo_command, payload, scratch_dir)
                 for name, payload in _payloads(blocking, scratch_dir, agent).items()}
    scenes = {"rewrite": _rewrite(calls["rewrite"], agent), "block": _block(blocking, calls["block"], agent)}
    if "session_start" in calls:
        scenes = {"session_start": _session_start(blocking, calls["session_start"]),
                  "correction": _correction(blocking, calls["correction"]), **scenes}
    return {
        "ok": all(scene["ok"] for scene in scenes.values()),
        "rules": [f"{rule.from_name} → {rule.to_name}" for rule in (blocking, REWRITE_RULE)],
        **scenes,
    }


def rejects_unknown_tools(agent=None) -> bool:
    """Whether ``agent`` (the default agent when None) shows an unknown tool name in the demo as
    rejected before any hook (``Agent.demo_rejects_unknown_tools``)."""
    from dp.agents import get

    return (agent or get()).demo_rejects_unknown_tools


def _payloads(blocking: Rule, cwd: Path, agent=None) -> dict:
    """The payload of each scene, shaped as the agent sends it."""
    shell = agent.agent_tool(BASH_TOOL) if agent else BASH_TOOL
    payloads = {
        "rewrite": sample_payload(shell, {"command": SAMPLE_COMMAND, "description": "Find TODOs"}, cwd, agent),
        "block": sample_payload(blocking.from_name, {"file_path": "src/app.py"}, cwd, agent),
    }
    if rejects_unknown_tools(agent):
        rejected = {"tool_name": blocking.from_name, "tool_input": {"file_path": "src/app.py"},
                    "tool_use_id": "toolu_dp_sample",
                    "tool_response": f"<tool_use_error>Error: {UNKNOWN_TOOL_ERROR}: {blocking.from_name}</tool_use_error>"}
        payloads["session_start"] = _event("SessionStart", cwd, source="startup")
        payloads["correction"] = _event("PostToolBatch", cwd, tool_calls=[rejected])
    return payloads


def _event(name: str, cwd: Path, **fields) -> dict:
    """A Claude Code payload of an event that is not about one tool call (SessionStart, PostToolBatch)."""
    common = {key: value for key, value in sample_payload("", {}, cwd).items()
              if key not in ("tool_name", "tool_input", "tool_use_id")}
    return {**common, "hook_event_name": name, **fields}


def _context(result) -> str | None:
    specific = (result.output or {}).get("hookSpecificOutput") or {}
    context = specific.get("additionalContext")
    return context if isinstance(context, str) else None


def _session_start(blocking: Rule, result) -> dict:
    """What the model is shown before its first turn: the corrections, one per line."""
    context = _context(result) or ""
    lines = [line for line in context.splitlines()[1:] if line.strip()]
    ok = result.returncode == 0 and any(blocking.from_name in line for line in lines)
    return {"event": "SessionStart", "lines": lines, "exit_code": result.returncode,
            "error": result.error or _stderr(result), "seconds": round(result.seconds, 3), "ok": ok}


def _correction(blocking: Rule, result) -> dict:
    """What the model is told right after Claude Code rejected the unknown tool name."""
    context = _context(result)
    ok = result.returncode == 0 and bool(context) and blocking.to_name in context
    return {"event": "PostToolBatch", "tool_name": blocking.from_name,
            "client_error": f"{UNKNOWN_TOOL_ERROR}: {blocking.from_name}", "additional_context": context,
            "exit_code": result.returncode, "error": result.error or _stderr(result),
            "seconds": round(result.seconds, 3), "ok": ok}


def _rewrite(result, agent=None) -> dict:
    answer = result.decision(agent)
    updated = answer.updated_input if answer.kind == REWRITE else {}
    advice = answer.text if answer.kind == DENY else None
    rewritten = updated.get("command") if isinstance(updated.get("command"), str) else None
    return {
        "tool_name": agent.agent_tool(BASH_TOOL) if agent else BASH_TOOL,
        "command": SAMPLE_COMMAND,
        "rewritten": rewritten,
        "advice": advice,
        "additional_context": (answer.text or None) if answer.kind in (REWRITE, CONTEXT) else None,
        "kept_description": updated.get("description") == "Find TODOs" if rewritten else None,
        "exit_code": result.returncode,
        "error": result.error or _stderr(result),
        "seconds": round(result.seconds, 3),
        "ok": result.returncode == 0 and (rewritten not in (None, SAMPLE_COMMAND) or bool(advice)),
    }


def _block(blocking: Rule, result, agent=None) -> dict:
    refused = result.decision(agent)
    # The correction names the tool as the agent calls it (Copilot CLI: `view` for Read).
    right_name = agent.agent_tool(agent.canonical(blocking.to_name)) if agent else blocking.to_name
    return {
        "tool_name": blocking.from_name,
        "exit_code": result.returncode,
        "message": refused.text if refused.kind in (BLOCK, DENY) else result.stderr.strip(),
        "error": result.error or _stderr(result),
        "seconds": round(result.seconds, 3),
        "ok": refused.kind in (BLOCK, DENY) and right_name in refused.text,
    }


def _stderr(result) -> str:
    """The last line a failing hook printed (a traceback's last line names the error)."""
    if result.returncode in (0, 2, None):
        return ""
    lines = result.stderr.strip().splitlines()
    return lines[-1] if lines else ""
