"""``dp doctor --live --agent opencode``: the user's own ``opencode`` against a fake model, end to end.

The same idea as Claude Code's live check (dp/doctor/live.py): a scripted
model on 127.0.0.1 (dp/agents/openai_compat_fake.py, an OpenAI-compatible
provider whose base URL OpenCode takes from its config) makes the calls dp's
rules should correct — a shell command a rule rewrites, a tool name an alias
corrects — and ``opencode run`` makes them in a temporary project and HOME
holding only dp's plugin as the user installed it (the same file, the same
commands) and ``DP_DB`` naming the user's store. Nothing of the user's
OpenCode state is read or written and nothing leaves the machine (models.dev,
updates and sharing are switched off). The report says, from what the model
was sent, whether the plugin acted and what the model read.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from dp.agents.openai_compat_fake import MODEL, Conversation, FakeChat, shell, tool_call
from dp.errors import DpError

RUN_TIMEOUT_SECONDS = 300
FOREIGN = ("OPENCODE", "XDG_")
PROVIDER = "dp-live"
# What OpenCode installs into a config directory on start unless it finds it there (npm, from the registry):
# dp's plugin imports only types from it, so an empty install keeps the check offline.
DEPENDENCIES = {"@opencode-ai/plugin": "1.18.33"}
QUIET = {"OPENCODE_DISABLE_AUTOUPDATE": "1", "OPENCODE_DISABLE_MODELS_FETCH": "1", "OPENCODE_DISABLE_SHARE": "1"}


def settle(config_dir: Path) -> None:
    """Make ``config_dir`` look like one whose dependencies OpenCode already installed (it then installs
    nothing: it checks that node_modules exists and package-lock.json lists package.json's dependencies)."""
    (config_dir / "node_modules").mkdir(parents=True, exist_ok=True)
    for name, content in (("package.json", {"dependencies": DEPENDENCIES}),
                          ("package-lock.json", {"lockfileVersion": 3,
                                                 "packages": {"": {"dependencies": DEPENDENCIES}}})):
        if not (config_dir / name).exists():
            (config_dir / name).write_text(json.dumps(content, indent=2) + "\n")


def provider_config(url: str, **extra) -> str:
    """OpenCode settings (``OPENCODE_CONFIG_CONTENT``) whose model is the fake at ``url``."""
    provider = {"npm": "@ai-sdk/openai-compatible", "name": "dp fake model",
                "options": {"baseURL": f"{url}/v1", "apiKey": "dp-not-a-key"},
                "models": {MODEL: {"name": MODEL, "tool_call": True}}}
    return json.dumps({"provider": {PROVIDER: provider}, "model": f"{PROVIDER}/{MODEL}", "autoupdate": False,
                       **extra})


def find_opencode() -> str | None:
    """The user's ``opencode``: ``$DP_OPENCODE``, else the one on PATH."""
    return os.environ.get("DP_OPENCODE") or shutil.which("opencode")


def probe_calls(agent, rules) -> list[tuple[str, dict]]:
    """(what it probes, scripted call): a shell command a rule rewrites, a tool name an alias corrects."""
    from dp.rules.model import BASH_TOOL, TOOL_ALIAS, probe_command

    calls = []
    bash_rule = next((r for r in rules if r.tool == BASH_TOOL and r.command and r.match_kind != TOOL_ALIAS), None)
    if bash_rule is not None:
        calls.append((f"Bash rule for {bash_rule.command}",
                      shell(probe_command(bash_rule), tool="bash", description="dp live probe")))
    alias = next((r for r in rules if r.match_kind == TOOL_ALIAS and agent.corrects(r.from_name, r.to_name)), None)
    if alias is not None:
        calls.append((f"tool-name alias {alias.from_name} → {alias.to_name}", tool_call(alias.from_name, {})))
    return calls


def run(db_path: Path, rules, agent) -> dict:
    """Run the live check; raises DpError when it cannot run at all (no opencode, no plugin, no rule)."""
    binary = find_opencode()
    if binary is None:
        raise DpError("dp doctor --live --agent opencode runs your installed OpenCode, but `opencode` is not on "
                      "PATH; install it (npm install -g opencode-ai) or name it with DP_OPENCODE=PATH")
    plugin = agent.config_path("user")
    if agent.plugin_state(plugin) != "current":
        raise DpError(f"dp's plugin is not installed in {plugin.parent}; install it with: dp init --agent opencode")
    calls = probe_calls(agent, rules)
    if not calls:
        raise DpError("the store has no rule OpenCode can show; add one (dp alias --cmd grep --replace rg) "
                      "and run again")
    with tempfile.TemporaryDirectory(prefix="dp-live-") as scratch, FakeChat([[c] for _, c in calls]) as fake:
        proc = _run(binary, Path(scratch), plugin, db_path, fake.url)
        requests = fake.main_requests
    conversation = Conversation(requests[-1]["messages"]) if requests else None
    system = "\n".join(m.get("content") for m in (requests[0]["messages"] if requests else ())
                       if m.get("role") == "system" and isinstance(m.get("content"), str))
    return {"client": agent.display, "binary": binary, "version": _version(binary), "exit_code": proc.returncode,
            "probes": [_probe(label, call, conversation) for label, call in calls],
            "session_start": _session_context(system)}


def _run(binary: str, scratch: Path, plugin: Path, db_path: Path, url: str) -> subprocess.CompletedProcess:
    home, project = scratch / "home", scratch / "project"
    config = home / ".config" / "opencode"
    (config / plugin.parent.name).mkdir(parents=True)
    (home / "tmp").mkdir()
    project.mkdir()
    for source in (plugin, plugin.with_name("dp-opencode.json")):
        if source.exists():
            shutil.copyfile(source, config / plugin.parent.name / source.name)
    settle(config)
    env = {key: value for key, value in os.environ.items() if not key.startswith(FOREIGN)}
    env.update({"HOME": str(home), "TMPDIR": str(home / "tmp"), "XDG_CONFIG_HOME": str(home / ".config"),
                "XDG_DATA_HOME": str(home / ".local" / "share"), "XDG_CACHE_HOME": str(home / ".cache"),
                "XDG_STATE_HOME": str(home / ".local" / "state"), "PWD": str(project),
                "DP_DB": str(Path(db_path).expanduser().absolute()), "OPENCODE_CONFIG_CONTENT": provider_config(url),
                **QUIET})
    try:
        return subprocess.run([binary, "run", "dp doctor --live probe"], cwd=project, env=env, capture_output=True,
                              text=True, timeout=RUN_TIMEOUT_SECONDS, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise DpError(f"opencode did not finish within {RUN_TIMEOUT_SECONDS} s against the local fake model") from None


def _version(binary: str) -> str | None:
    try:
        proc = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=60,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.strip() or None if proc.returncode == 0 else None


def _probe(label: str, call: dict, conversation) -> dict:
    """What the model read for one probe call, and whether dp's plugin acted on it."""
    try:
        shown = conversation.output(call["id"]) if conversation else ""
    except AssertionError:
        shown = ""
    from dp.agents.opencode.adapter import UNAVAILABLE

    if call["name"] == "bash":
        told = [line.strip() for line in shown.splitlines() if line.startswith("dp:")]
    else:
        told = [shown.strip()] if shown.strip() and UNAVAILABLE not in shown else []
    return {"probe": label, "tool": call["name"], "input": json.loads(call["arguments"]), "fired": bool(told),
            "told": told, "result": shown[:500]}


def _session_context(system: str) -> str:
    if "dp (desire paths)" not in system:
        return ""
    return system[system.index("dp (desire paths)"):].strip()
