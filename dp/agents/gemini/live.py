"""``dp doctor --live --agent gemini``: the user's own ``gemini`` against a fake Gemini API.

The same idea as Claude Code's live check (dp/doctor/live.py): the fake model
(dp/agents/gemini/fake_api.py, 127.0.0.1 only) makes the calls dp's rules should
correct — a shell command a rule rewrites, a call of a tool Gemini has that an
alias blocks — and ``gemini -p`` runs them in a temporary project and HOME
holding only dp's hook entries from the user's ``~/.gemini/settings.json``,
the API-key sign-in pinned (headless mode refuses the gateway auth) and the
folder trusted; ``DP_DB`` names the user's store. Nothing of the user's
Gemini state is read or written and nothing leaves the machine. The report
says, from what the model was sent, whether the hooks fired and what the
model read.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from dp.agents.settings import user_entries
from dp.errors import DpError
from dp.agents.gemini.fake_api import MODEL, FakeGemini, function_call, shell
from dp.rules.model import BASH_TOOL, TOOL_ALIAS, probe_command

RUN_TIMEOUT_SECONDS = 120

AUTH = {"security": {"auth": {"selectedType": "gemini-api-key"}}}
FOREIGN = ("GEMINI", "GOOGLE", "XDG_")
SIGNS = ("dp:", "Tool execution blocked", "modified by a hook")
# Gemini validates a call's arguments before any hook: the probe of an alias gives the tool what it requires.
PROBE_ARGS = {"list_directory": {"dir_path": "."}, "read_file": {"file_path": "dp-live-probe.txt"},
              "glob": {"pattern": "*.dp-live-probe"}, "grep_search": {"pattern": "dp-live-probe"},
              "google_web_search": {"query": "dp live probe"}, "web_fetch": {"prompt": "https://example.invalid"},
              "read_many_files": {"include": ["*.dp-live-probe"]}}


def find_gemini() -> str | None:
    """The user's ``gemini``: ``$DP_GEMINI``, else the one on PATH."""
    return os.environ.get("DP_GEMINI") or shutil.which("gemini")


def probe_calls(agent, rules) -> list[tuple[str, dict]]:
    """(what it probes, scripted call): a shell command a rule rewrites, a Gemini tool an alias blocks."""
    calls = []
    bash_rule = next((r for r in rules if r.tool == BASH_TOOL and r.command and r.match_kind != TOOL_ALIAS), None)
    if bash_rule is not None:
        calls.append((f"Bash rule for {bash_rule.command}", shell(probe_command(bash_rule))))
    alias = next((r for r in rules if r.match_kind == TOOL_ALIAS and agent.is_own_tool(r.from_name)
                  and agent.corrects(r.from_name, r.to_name)), None)
    if alias is not None:
        calls.append((f"tool-name alias {alias.from_name} → {alias.to_name}", function_call(alias.from_name, PROBE_ARGS.get(alias.from_name, {}))))
    return calls


def run(db_path: Path, rules, agent) -> dict:
    """Run the live check; raises DpError when it cannot run at all (no gemini, no hook entries)."""
    binary = find_gemini()
    if binary is None:
        raise DpError("dp doctor --live --agent gemini runs your installed Gemini CLI, but `gemini` is not on PATH; "
                      "install it (npm install -g @google/gemini-cli) or name it with DP_GEMINI=PATH")
    user_settings = agent.config_path("user")
    entries = user_entries(user_settings)
    if agent.pre_tool_hook not in entries:
        raise DpError(f"no dp hook entries in {user_settings}; install them with: dp pave --hook --agent gemini")
    calls = probe_calls(agent, rules)
    if not calls:
        raise DpError("the store has no rule Gemini CLI can show; add one (dp alias --cmd grep --replace rg) "
                      "and run again")
    with tempfile.TemporaryDirectory(prefix="dp-live-") as scratch, FakeGemini([[c] for _, c in calls]) as fake:
        proc = _run_gemini(binary, Path(scratch), entries, db_path, fake.url)
        conversation = fake.conversation if fake.main_requests else None
    return {
        "client": agent.display,
        "binary": binary,
        "version": _version(binary),
        "exit_code": proc.returncode,
        "probes": _probe_reports(calls, conversation),
        "session_start": _session_context(conversation.opening if conversation else ""),
    }


def _version(binary: str) -> str | None:
    try:
        proc = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=60,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.strip() or None if proc.returncode == 0 else None


def _run_gemini(binary: str, scratch: Path, entries: dict, db_path: Path, url: str) -> subprocess.CompletedProcess:
    home, project = scratch / "home", scratch / "project"
    (home / ".gemini").mkdir(parents=True)
    (home / "tmp").mkdir()
    project.mkdir()
    (home / ".gemini" / "settings.json").write_text(json.dumps({**AUTH, "hooks": entries}))
    env = {key: value for key, value in os.environ.items() if not key.startswith(FOREIGN)}
    env.update({"HOME": str(home), "TMPDIR": str(home / "tmp"), "GOOGLE_GEMINI_BASE_URL": url,
                "GEMINI_API_KEY": "dp-doctor-live", "GEMINI_CLI_TRUST_WORKSPACE": "true",
                "DP_DB": str(Path(db_path).expanduser().absolute())})
    command = [binary, "-p", "dp doctor --live probe", "--output-format", "json", "--approval-mode", "yolo",
               "-m", MODEL]
    try:
        return subprocess.run(command, cwd=project, env=env, capture_output=True, text=True,
                              timeout=RUN_TIMEOUT_SECONDS, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise DpError(f"gemini did not finish within {RUN_TIMEOUT_SECONDS} s against the local fake model") from None


def _probe_reports(calls, conversation) -> list[dict]:
    reports, seen = [], {}
    for label, call in calls:
        name = call["functionCall"]["name"]
        index = seen[name] = seen.get(name, -1) + 1
        results = conversation.results(name) if conversation else []
        shown = results[index] if index < len(results) else ""
        told = [line.strip() for line in shown.splitlines() if any(sign in line for sign in SIGNS)]
        reports.append({"probe": label, "tool": name, "input": call["functionCall"]["args"], "fired": bool(told),
                        "told": told, "result": shown[:500]})
    return reports


def _session_context(opening: str) -> str:
    if "dp (desire paths)" not in opening:
        return ""
    return opening[opening.index("dp (desire paths)"):].split("</hook_context>")[0].strip()
