"""``dp doctor --live``: the user's own ``claude`` against a fake model, to see dp work end to end.

The fake Messages API (dp/agents/claude/fake_api.py) runs on 127.0.0.1 and plays a
model that makes one call dp's rules should correct: a Bash command a rule
rewrites, and a call of an aliased tool name. ``claude -p`` runs in a
temporary project with a temporary HOME (so no transcript, credential or
setting of the user's is read or written, and nothing leaves the machine),
with the user's dp hook entries copied in and ``DP_DB`` naming the user's
store (read-only for the hook). The report says whether the hook fired, what
it changed and what the model was shown, read from the requests the client sent.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path

from dp.agents.claude.client import find_claude, spelled, version_of
from dp.agents.claude.fake_api import FakeAnthropic, bash, block_text, tool_use
from dp.agents.settings import settings_path, user_entries
from dp.errors import DpError
from dp.rules.model import BASH_TOOL, TOOL_ALIAS, probe_command

RUN_TIMEOUT_SECONDS = 120
QUIET = {"DISABLE_AUTOUPDATER": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_TELEMETRY": "1",
         "DISABLE_ERROR_REPORTING": "1"}


def probe_calls(rules) -> list[tuple[str, dict]]:
    """(what it probes, scripted tool call): one Bash command a rule rewrites, one aliased tool name."""
    calls = []
    bash_rule = next((r for r in rules if r.tool == BASH_TOOL and r.command and r.match_kind != TOOL_ALIAS), None)
    if bash_rule is not None:
        calls.append((f"Bash rule for {bash_rule.command}", bash(probe_command(bash_rule))))
    alias = next((r for r in rules if r.match_kind == TOOL_ALIAS), None)
    if alias is not None:
        calls.append((f"tool-name alias {alias.from_name} → {alias.to_name}", tool_use(alias.from_name, {})))
    return calls


def run(db_path: Path, rules, agent=None) -> dict:
    """Run the live check; raises DpError when it cannot run at all (no claude, no hook)."""
    binary = find_claude()
    if binary is None:
        raise DpError("dp doctor --live runs your installed Claude Code, but `claude` is not on PATH; "
                      "install it (npm install -g @anthropic-ai/claude-code) or name it with DP_CLAUDE=PATH")
    user_settings = settings_path("user")
    entries = user_entries(user_settings)
    if not entries:
        raise DpError(f"no dp hook entries in {user_settings}; install them with: dp pave --hook")
    calls = probe_calls(rules)
    if not calls:
        raise DpError("the store has no rules to try; add one (dp alias --cmd grep --replace rg) and run again")
    version = version_of(binary)
    with tempfile.TemporaryDirectory(prefix="dp-live-") as scratch, FakeAnthropic([[c] for _, c in calls]) as fake:
        proc = _run_claude(binary, Path(scratch), entries, db_path, fake.url)
        messages = fake.main_requests[-1]["messages"] if fake.main_requests else []
    return {
        "claude": binary,
        "binary": binary,
        "version": spelled(version) if version else None,
        "exit_code": proc.returncode,
        "probes": [_probe_report(label, call, messages) for label, call in calls],
        "session_start": _session_context(messages),
    }


def _run_claude(binary: str, scratch: Path, entries: dict, db_path: Path, url: str) -> subprocess.CompletedProcess:
    home, project = scratch / "home", scratch / "project"
    (home / ".claude").mkdir(parents=True)
    (home / "tmp").mkdir()
    project.mkdir()
    (home / ".claude" / "settings.json").write_text(json.dumps({"hooks": entries}))
    env = {key: value for key, value in os.environ.items() if not key.startswith(("ANTHROPIC", "CLAUDE", "XDG_"))}
    env.update(QUIET)
    env.update({"HOME": str(home), "TMPDIR": str(home / "tmp"), "ANTHROPIC_BASE_URL": url,
                "ANTHROPIC_API_KEY": "sk-ant-dp-doctor-live", "DP_DB": str(Path(db_path).expanduser().absolute())})
    try:
        return subprocess.run([binary, "-p", "dp doctor --live probe", "--output-format", "json"], cwd=project,
                              env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT_SECONDS,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise DpError(f"claude did not finish within {RUN_TIMEOUT_SECONDS} s against the local fake model") from None


def _probe_report(label: str, call: dict, messages: list) -> dict:
    shown, context = "", []
    for index, message in enumerate(messages):
        content = message.get("content")
        if message.get("role") != "user" or not isinstance(content, list):
            continue
        for block in content:
            if isinstance(block, dict) and block.get("tool_use_id") == call["id"]:
                shown = block_text(block.get("content"))
                for later in messages[index + 1:]:
                    if later.get("role") == "assistant":
                        break
                    context.append(block_text(later.get("content")))
    told = [line for part in context for line in part.splitlines() if "dp:" in line]
    return {"probe": label, "tool": call["name"], "input": call["input"], "fired": bool(told),
            "told": told, "result": shown[:500]}


def _session_context(messages: list) -> str:
    for message in messages:
        if message.get("role") == "assistant":
            break
        text = block_text(message.get("content"))
        if "dp (desire paths)" in text:
            return text[text.index("dp (desire paths)"):].split("\n\n")[0]
    return ""
