"""``dp doctor --live --agent qwen``: the user's own ``qwen`` against the local OpenAI-compatible fake.

As for the other agents (dp/agents/claude/live.py): the fake model
(dp/agents/openai_compat_fake.py, 127.0.0.1 only) makes the calls dp's rules should
correct — a shell command a rule rewrites (Qwen Code answers it with dp's refusal
carrying the corrected command) and a tool name an alias corrects (Qwen rejects it,
then PostToolBatch's correction is appended to that result) — and ``qwen -p`` runs
them in a temporary project and HOME holding only dp's hook entries from the
user's ``~/.qwen/settings.json`` and the OpenAI sign-in pointed at the fake;
``DP_DB`` names the user's store. Nothing of the user's Qwen state is read or
written and nothing leaves the machine. The report says, from what the model was
sent, whether the hooks fired and what the model read.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from dp.agents.settings import user_entries
from dp.agents.openai_compat_fake import MODEL, Conversation, FakeChat, shell, tool_call
from dp.errors import DpError
from dp.rules.model import BASH_TOOL, TOOL_ALIAS, probe_command

RUN_TIMEOUT_SECONDS = 120

AUTH = {"security": {"auth": {"selectedType": "openai"}}, "model": {"name": MODEL}}
FOREIGN = ("QWEN", "OPENAI", "DASHSCOPE", "XDG_")
SIGN = "dp:"


def find_qwen() -> str | None:
    """The user's ``qwen``: ``$DP_QWEN``, else the one on PATH."""
    return os.environ.get("DP_QWEN") or shutil.which("qwen")


def probe_calls(agent, rules) -> list[tuple[str, dict]]:
    """(what it probes, scripted call): a shell command a rule rewrites, a tool name an alias corrects."""
    calls = []
    bash_rule = next((r for r in rules if r.tool == BASH_TOOL and r.command and r.match_kind != TOOL_ALIAS), None)
    if bash_rule is not None:
        calls.append((f"Bash rule for {bash_rule.command}", shell(probe_command(bash_rule))))
    alias = next((r for r in rules if r.match_kind == TOOL_ALIAS and not agent.is_own_tool(r.from_name)
                  and agent.corrects(r.from_name, r.to_name)), None)
    if alias is not None:
        calls.append((f"tool-name alias {alias.from_name} → {alias.to_name}", tool_call(alias.from_name, {})))
    return calls


def run(db_path: Path, rules, agent) -> dict:
    """Run the live check; raises DpError when it cannot run at all (no qwen, no hook entries, no rule)."""
    binary = find_qwen()
    if binary is None:
        raise DpError("dp doctor --live --agent qwen runs your installed Qwen Code, but `qwen` is not on PATH; "
                      "install it (npm install -g @qwen-code/qwen-code) or name it with DP_QWEN=PATH")
    user_settings = agent.config_path("user")
    entries = user_entries(user_settings)
    if agent.pre_tool_hook not in entries:
        raise DpError(f"no dp hook entries in {user_settings}; install them with: dp pave --hook --agent qwen")
    calls = probe_calls(agent, rules)
    if not calls:
        raise DpError("the store has no rule Qwen Code can show; add one (dp alias --cmd grep --replace rg) "
                      "and run again")
    with tempfile.TemporaryDirectory(prefix="dp-live-") as scratch, FakeChat([[c] for _, c in calls]) as fake:
        proc = _run_qwen(binary, Path(scratch), entries, db_path, fake.url)
        requests = fake.main_requests
    conversation = Conversation(requests[-1]["messages"]) if requests else None
    return {
        "client": agent.display,
        "binary": binary,
        "version": _version(binary),
        "exit_code": proc.returncode,
        "probes": [_probe_report(label, call, conversation) for label, call in calls],
        "session_start": _session_context(conversation.opening if conversation else ""),
    }


def _version(binary: str) -> str | None:
    try:
        proc = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=60,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.strip() or None if proc.returncode == 0 else None


def _run_qwen(binary: str, scratch: Path, entries: dict, db_path: Path, url: str) -> subprocess.CompletedProcess:
    home, project = scratch / "home", scratch / "project"
    (home / ".qwen").mkdir(parents=True)
    (home / "tmp").mkdir()
    project.mkdir()
    (home / ".qwen" / "settings.json").write_text(json.dumps({**AUTH, "hooks": entries}))
    env = {key: value for key, value in os.environ.items() if not key.startswith(FOREIGN)}
    env.update({"HOME": str(home), "TMPDIR": str(home / "tmp"), "OPENAI_BASE_URL": url + "/v1",
                "OPENAI_API_KEY": "dp-doctor-live", "OPENAI_MODEL": MODEL, "QWEN_CODE_SUPPRESS_YOLO_WARNING": "1",
                "DP_DB": str(Path(db_path).expanduser().absolute())})
    command = [binary, "-p", "dp doctor --live probe", "--approval-mode", "yolo"]
    try:
        return subprocess.run(command, cwd=project, env=env, capture_output=True, text=True,
                              timeout=RUN_TIMEOUT_SECONDS, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise DpError(f"qwen did not finish within {RUN_TIMEOUT_SECONDS} s against the local fake model") from None


def _probe_report(label: str, call: dict, conversation) -> dict:
    try:
        shown = conversation.output(call["id"]) if conversation else ""
    except AssertionError:  # the call never got a result: qwen stopped before it
        shown = ""
    told = [line.strip() for line in shown.splitlines() if SIGN in line]
    return {"probe": label, "tool": call["name"], "input": json.loads(call["arguments"]), "fired": bool(told),
            "told": told, "result": shown[:500]}


def _session_context(opening: str) -> str:
    if "dp (desire paths)" not in opening:
        return ""
    return opening[opening.index("dp (desire paths)"):].split("</hook_context>")[0].strip()
