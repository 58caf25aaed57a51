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


def run(command: str) -> dict:
    """Block and rewrite through ``command``; reports what the hook answered."""
    from dp.store import Store

    with tempfile.TemporaryDirectory(prefix="dp-demo-") as scratch:
        scratch_dir = Path(scratch)
        db = scratch_dir / "demo.db"
        with Store.open(db) as store:
            for rule in (BLOCK_RULE, REWRITE_RULE):
                store.set_rule(rule)
        demo_command = with_store(command, db)
        bash_input = {"command": SAMPLE_COMMAND, "description": "Find TODOs"}
        rewrite = call(demo_command, sample_payload(BASH_TOOL, bash_input, scratch_dir), scratch_dir)
        block_payload = sample_payload(BLOCK_RULE.from_name, {"file_path": "src/app.py"}, scratch_dir)
        block = call(demo_command, block_payload, scratch_dir)

    specific = (rewrite.output or {}).get("hookSpecificOutput") or {}
    updated = rewrite.updated_input or {}
    advice = specific.get("permissionDecisionReason") if specific.get("permissionDecision") == "deny" else None
    rewritten = updated.get("command") if isinstance(updated.get("command"), str) else None
    rewrite_ok = rewrite.returncode == 0 and (rewritten not in (None, SAMPLE_COMMAND) or bool(advice))
    block_ok = block.returncode == 2 and BLOCK_RULE.to_name in block.stderr
    return {
        "ok": rewrite_ok and block_ok,
        "rules": [f"{rule.from_name} → {rule.to_name}" for rule in (BLOCK_RULE, REWRITE_RULE)],
        "rewrite": {
            "tool_name": BASH_TOOL,
            "command": SAMPLE_COMMAND,
            "rewritten": rewritten,
            "advice": advice,
            "additional_context": specific.get("additionalContext"),
            "kept_description": updated.get("description") == "Find TODOs" if rewritten else None,
            "exit_code": rewrite.returncode,
            "error": rewrite.error or _stderr(rewrite),
            "seconds": round(rewrite.seconds, 3),
            "ok": rewrite_ok,
        },
        "block": {
            "tool_name": BLOCK_RULE.from_name,
            "exit_code": block.returncode,
            "message": block.stderr.strip(),
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
