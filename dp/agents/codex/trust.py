"""Whether Codex will run a hook: its trust record in ``config.toml``.

Codex runs a non-managed hook only once the user has reviewed it (``/hooks``
in the interactive client, which records ``[hooks.state."KEY"] trusted_hash``
in ``~/.codex/config.toml``), or for one run with ``codex exec
--dangerously-bypass-hook-trust``; an untrusted hook is skipped without a
word. So ``dp doctor`` has to tell an installed-and-trusted hook from an
installed-but-silent one, and that needs the hash Codex computes.

The key is ``<absolute path of the file>:<event label>:<group index>:<handler
index>``. The hash is ``sha256:`` + hex of the canonical JSON (keys sorted,
no spaces) of the handler's normalized identity: the event label, the
group's matcher, and the one handler with ``timeout`` filled in (600 when
unset), ``async`` always present and unset optional fields left out. Verified
against Codex CLI 0.169.0: a hook whose recorded hash dp computed runs
without the bypass flag (integration_tests/real_client_codex/test_install.py).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

DEFAULT_TIMEOUT = 600
# Codex's labels for the events dp installs (the rest keep their own snake case).
_LABEL_OVERRIDES: dict[str, str] = {}
TRUSTED, MODIFIED, UNTRUSTED, DISABLED = "trusted", "modified", "untrusted", "disabled"


def event_label(event: str) -> str:
    """``PreToolUse`` → ``pre_tool_use``: how Codex names an event in trust keys."""
    return _LABEL_OVERRIDES.get(event) or re.sub(r"(?<!^)(?=[A-Z])", "_", event).lower()


def hook_key(source: Path, event: str, group: int, handler: int) -> str:
    return f"{source}:{event_label(event)}:{group}:{handler}"


def hook_hash(event: str, matcher, handler: dict) -> str:
    """The hash Codex records when the user trusts this handler."""
    normalized = {"type": "command", "command": handler.get("command"),
                  "timeout": max(int(handler.get("timeout") or DEFAULT_TIMEOUT), 1),
                  "async": bool(handler.get("async", False))}
    if isinstance(handler.get("statusMessage"), str):
        normalized["statusMessage"] = handler["statusMessage"]
    identity = {"event_name": event_label(event), "hooks": [normalized]}
    if matcher is not None and event not in ("UserPromptSubmit", "Stop"):
        identity["matcher"] = matcher
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def states(config: dict) -> dict:
    """``{key: {"enabled"?, "trusted_hash"?}}`` from a parsed ``config.toml``."""
    hooks = config.get("hooks") if isinstance(config, dict) else None
    found = hooks.get("state") if isinstance(hooks, dict) else None
    return {key: value for key, value in (found or {}).items() if isinstance(value, dict)}


def status(config: dict, source: Path, event: str, group: int, index: int, matcher, handler: dict) -> str:
    """``trusted``, ``modified`` (trusted once, changed since), ``untrusted`` or ``disabled``."""
    state = states(config).get(hook_key(source, event, group, index), {})
    if state.get("enabled") is False:
        return DISABLED
    recorded = state.get("trusted_hash")
    if not isinstance(recorded, str):
        return UNTRUSTED
    return TRUSTED if recorded == hook_hash(event, matcher, handler) else MODIFIED
