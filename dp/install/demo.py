"""The live demonstration ``dp init`` ends with.

It runs the hook command exactly as installed, but pointed at a throwaway
store holding two sample rules, so the user sees the real program block a
hallucinated tool and rewrite a command without their own store gaining
anything.
"""

from __future__ import annotations

import shlex
import tempfile
from pathlib import Path

from dp.agents.base import BLOCK, CONTEXT, DENY, REWRITE
from dp.claude.settings import command_words
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
    """Block and rewrite through ``command`` (``agent``'s hook JSON); reports what the hook answered."""
    from dp.store import Store

    blocking = block_rule(agent)
    with tempfile.TemporaryDirectory(prefix="dp-demo-") as scratch:
        scratch_dir = Path(scratch)
        db = scratch_dir / "demo.db"
        with Store.open(db) as store:
            for rule in (blocking, REWRITE_RULE):
                store.set_rule(rule)
        demo_command = with_store(command, db)
        bash_input = {"command": SAMPLE_COMMAND, "description": "Find TODOs"}
        shell = agent.agent_tool(BASH_TOOL) if agent else BASH_TOOL
        rewrite = call(demo_command, sample_payload(shell, bash_input, scratch_dir, agent), scratch_dir)
        block_payload = sample_payload(blocking.from_name, {"file_path": "src/app.py"}, scratch_dir, agent)
        block = call(demo_command, block_payload, scratch_dir)
    return _report(blocking, rewrite, block, agent)


def _report(blocking: Rule, rewrite, block, agent) -> dict:
    answer, refused = rewrite.decision(agent), block.decision(agent)
    updated = answer.updated_input if answer.kind == REWRITE else {}
    advice = answer.text if answer.kind == DENY else None
    rewritten = updated.get("command") if isinstance(updated.get("command"), str) else None
    rewrite_ok = rewrite.returncode == 0 and (rewritten not in (None, SAMPLE_COMMAND) or bool(advice))
    # The correction names the tool as the agent calls it (Copilot CLI: `view` for Read).
    right_name = agent.agent_tool(agent.canonical(blocking.to_name)) if agent else blocking.to_name
    block_ok = refused.kind in (BLOCK, DENY) and right_name in refused.text
    return {
        "ok": rewrite_ok and block_ok,
        "rules": [f"{rule.from_name} → {rule.to_name}" for rule in (blocking, REWRITE_RULE)],
        "rewrite": {
            "tool_name": agent.agent_tool(BASH_TOOL) if agent else BASH_TOOL,
            "command": SAMPLE_COMMAND,
            "rewritten": rewritten,
            "advice": advice,
            "additional_context": (answer.text or None) if answer.kind in (REWRITE, CONTEXT) else None,
            "kept_description": updated.get("description") == "Find TODOs" if rewritten else None,
            "exit_code": rewrite.returncode,
            "error": rewrite.error or _stderr(rewrite),
            "seconds": round(rewrite.seconds, 3),
            "ok": rewrite_ok,
        },
        "block": {
            "tool_name": blocking.from_name,
            "exit_code": block.returncode,
            "message": refused.text if refused.kind in (BLOCK, DENY) else block.stderr.strip(),
            "error": block.error or _stderr(block),
            "seconds": round(block.seconds, 3),
            "ok": block_ok,
        },
    }


def _stderr(result) -> str:
    """The last line a failing hook printed (a traceback's last line names the error)."""
    if result.returncode in (0, 2, None):
        return ""
    lines = result.stderr.strip().splitlines()
    return lines[-1] if lines else ""
