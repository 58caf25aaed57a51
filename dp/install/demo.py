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
An agent that rejects an unknown tool name before any hook (its ``tool_alias_block`` promise
not kept: Claude Code, Codex CLI, Gemini CLI, Qwen Code) is shown the session-start scene instead
of a block it never produces; the correction right after the rejected call is Claude Code's
(``demo_rejects_unknown_tools``). An agent whose hook sees the name shows the block.

The rewrite's target (``rg``) is often not installed (stock Debian, Ubuntu, macOS), and the hook
rightly leaves ``grep`` as typed then. That is dp working, not failing: the scene says which
program is missing and runs the hook once more with a stand-in for it first on PATH (an empty
script the hook only looks up, never runs), so the user sees what dp does once it is there.
"""

from __future__ import annotations

import shlex
import tempfile
from pathlib import Path

from dp.agents.base import BLOCK, CONTEXT, DENY, REWRITE, SESSION_START
from dp.agents.settings import command_words
from dp.hook.events import UNKNOWN_TOOL_ERROR
from dp.install.hookcall import call, sample_payload
from dp.rules.model import BASH_PARAM, BASH_TOOL, COMMAND, Rule
from dp.rules.programs import missing_programs

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


def block_rule(agent=None) -> Rule | None:
    """The demonstration's tool-name alias: one that is a correction in ``agent``; None for an agent
    with no tool it could name (Codex CLI's hooks see only its shell: no Read to send the model to).

    ``read_file → Read`` is what models get wrong in Claude Code; in an agent
    whose Read *is* ``read_file`` (Gemini CLI) the mistake runs the other way.
    """
    if agent is None or agent.corrects(BLOCK_RULE.from_name, BLOCK_RULE.to_name):
        target = agent.agent_tool(BLOCK_RULE.to_name) if agent else BLOCK_RULE.to_name
        return BLOCK_RULE if agent is None or agent.is_own_tool(target) else None
    return Rule(BLOCK_RULE.to_name, agent.agent_tool(BLOCK_RULE.to_name))


def run(command: str, agent=None) -> dict:
    """Every scene through ``command`` (``agent``'s hook JSON); reports what the hook answered."""
    from dp.store import Store

    blocking = block_rule(agent)
    rules = [rule for rule in (blocking, REWRITE_RULE) if rule is not None]
    missing = missing_programs(REWRITE_RULE)
    with tempfile.TemporaryDirectory(prefix="dp-demo-") as scratch:
        scratch_dir = Path(scratch)
        db = scratch_dir / "demo.db"
        with Store.open(db) as store:
            for rule in rules:
                store.set_rule(rule)
        demo_command = with_store(command, db)
        payloads = _payloads(blocking, scratch_dir, agent)
        calls = {name: call(demo_command, payload, scratch_dir) for name, payload in payloads.items()}
        if missing:  # what the hook does once the program is there
            calls["rewrite_with"] = call(demo_command, payloads["rewrite"], scratch_dir,
                                         path_first=_stand_ins(scratch_dir, missing))
    scenes = {"rewrite": _rewrite(calls["rewrite"], agent, missing, calls.get("rewrite_with"))}
    if "block" in calls and blocking is not None:  # a block is asked for only with its rule
        scenes["block"] = _block(blocking, calls["block"], agent)
    if "correction" in calls and blocking is not None:
        scenes = {"correction": _correction(blocking, calls["correction"]), **scenes}
    if "session_start" in calls:
        scenes = {"session_start": _session_start(blocking, calls["session_start"], missing), **scenes}
    return {
        "ok": all(scene["ok"] for scene in scenes.values()),
        "rules": [f"{rule.from_name} → {rule.to_name}" for rule in rules],
        **scenes,
    }


def _stand_ins(scratch: Path, programs: list[str]) -> Path:
    """A directory of empty executables named ``programs``: the hook looks them up and never runs them."""
    directory = scratch / "stand-ins"
    directory.mkdir()
    for program in programs:
        stand_in = directory / program
        stand_in.write_text("#!/bin/sh\nexit 0\n")
        stand_in.chmod(0o755)
    return directory


def told_up_front(agent=None) -> bool:
    """Whether ``agent`` rejects a tool name it does not know before any hook runs (its
    ``tool_alias_block`` promise is not kept), so the demo shows the corrections at session start
    instead of a block the agent never produces."""
    from dp.agents import get

    promise = next(p for p in (agent or get()).promises() if p.name == "tool_alias_block")
    return not promise.kept


def rejects_unknown_tools(agent=None) -> bool:
    """Whether ``agent`` (the default agent when None) shows an unknown tool name in the demo as
    rejected before any hook (``Agent.demo_rejects_unknown_tools``)."""
    from dp.agents import get

    return (agent or get()).demo_rejects_unknown_tools


def _payloads(blocking: Rule | None, cwd: Path, agent=None) -> dict:
    """The payload of each scene, shaped as the agent sends it."""
    shell = agent.agent_tool(BASH_TOOL) if agent else BASH_TOOL
    payloads = {"rewrite": sample_payload(shell, {"command": SAMPLE_COMMAND, "description": "Find TODOs"}, cwd, agent)}
    if told_up_front(agent):
        payloads["session_start"] = _event(_session_start_hook(agent), cwd, agent, source="startup")
    if blocking is None:
        return payloads
    payloads["block"] = sample_payload(blocking.from_name, {"file_path": "src/app.py"}, cwd, agent)
    if rejects_unknown_tools(agent):
        rejected = {"tool_name": blocking.from_name, "tool_input": {"file_path": "src/app.py"},
                    "tool_use_id": "toolu_dp_sample",
                    "tool_response": f"<tool_use_error>Error: {UNKNOWN_TOOL_ERROR}: {blocking.from_name}</tool_use_error>"}
        payloads["correction"] = _event("PostToolBatch", cwd, agent, tool_calls=[rejected])
    return payloads


def _session_start_hook(agent=None) -> str:
    """The agent's name for a session's start (``session.start`` from dp's OpenCode plugin), ``SessionStart``
    where its events do not name one."""
    names = [hook for hook, kind in (agent.events if agent else {}).items() if kind == SESSION_START]
    return names[0] if names else "SessionStart"


def _event(name: str, cwd: Path, agent=None, **fields) -> dict:
    """``agent``'s payload of an event that is not about one tool call (SessionStart, PostToolBatch)."""
    common = {key: value for key, value in sample_payload("", {}, cwd, agent).items()
              if key not in ("tool_name", "tool_input", "tool_use_id")}
    return {**common, "hook_event_name": name, **fields}


def _context(result) -> str | None:
    """The text an answer adds for the model: ``hookSpecificOutput.additionalContext``, or the system prompt's
    addition in dp's OpenCode plugin's answer to a session's start (``system``)."""
    output = result.output or {}
    context = (output.get("hookSpecificOutput") or {}).get("additionalContext", output.get("system"))
    return context if isinstance(context, str) else None


def _session_start(blocking: Rule | None, result, missing=()) -> dict:
    """What the model is shown before its first turn: the corrections, one per line. The rewrite is taught
    only where it acts: with its program ``missing`` here, its line must be absent."""
    context = _context(result) or ""
    lines = [line for line in context.splitlines()[1:] if line.strip()]
    named = REWRITE_RULE.from_name if blocking is None else blocking.from_name
    shown = any(named in line for line in lines)
    ok = result.returncode == 0 and (not shown if blocking is None and missing else shown)
    return {"event": "SessionStart", "lines": lines, "exit_code": result.returncode,
            "error": result.error or _stderr(result), "seconds": round(result.seconds, 3), "ok": ok}


def _correction(blocking: Rule, result) -> dict:
    """What the model is told right after Claude Code rejected the unknown tool name."""
    context = _context(result)
    ok = result.returncode == 0 and bool(context) and blocking.to_name in (context or "")
    return {"event": "PostToolBatch", "tool_name": blocking.from_name,
            "client_error": f"{UNKNOWN_TOOL_ERROR}: {blocking.from_name}", "additional_context": context,
            "exit_code": result.returncode, "error": result.error or _stderr(result),
            "seconds": round(result.seconds, 3), "ok": ok}


def _rewrite(result, agent=None, missing: list[str] | tuple = (), with_program=None) -> dict:
    """The Bash rewrite; with its target ``missing`` here, left as typed, and what it is once installed
    (``with_program``: the same call with a stand-in for it on PATH)."""
    answer = result.decision(agent)
    updated = answer.updated_input if answer.kind == REWRITE else {}
    advice = answer.text if answer.kind == DENY else None
    rewritten = updated.get("command") if isinstance(updated.get("command"), str) else None
    scene = {
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
    if missing and with_program is not None:
        once = _rewrite(with_program, agent)
        left_as_typed = result.returncode == 0 and rewritten is None and advice is None
        scene.update(missing=list(missing), once_installed=once["rewritten"] or once["advice"],
                     ok=left_as_typed and once["ok"])
    return scene


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
