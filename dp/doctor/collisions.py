"""The ``other-hooks`` lines of ``dp doctor``: PreToolUse hooks besides dp's that also see Bash.

Claude Code keeps only one ``updatedInput`` per call, so another hook that
returns one can silently undo dp's rewrite.
"""

from __future__ import annotations

from dp.agents import settings as hook_settings
from dp.doctor.findings import OK, WARNING, Finding
from dp.doctor.settings_files import SettingsFile


def check_colliding_hooks(files: list[SettingsFile]) -> list[Finding]:
    """Other PreToolUse hooks that also see Bash: only one updatedInput survives."""
    findings = []
    for file in files:
        for event, group, hook in hook_settings.iter_hooks(file.data):
            if event != hook_settings.EVENT or hook_settings.is_dp_hook(hook):
                continue
            if not hook_settings.matcher_matches(group.get("matcher"), "Bash"):
                continue
            findings.append(
                Finding(
                    "other-hooks",
                    WARNING,
                    f"{file.where}: {_describe(hook)} (matcher {group.get('matcher', '')!r}) also runs on "
                    "Bash; Claude Code keeps only one updatedInput, so it can undo dp's rewrites",
                    'narrow its matcher (e.g. "Edit|Write") or make sure it never returns updatedInput',
                )
            )
    if not findings:
        findings.append(Finding("other-hooks", OK, "no other PreToolUse hook runs on Bash"))
    return findings


def _describe(hook) -> str:
    """``command hook '~/bin/x.sh'``: its type and what it runs, bounded."""
    if not isinstance(hook, dict):
        return f"? hook {str(hook)[:80]!r}"
    kind = hook.get("type", "command")
    what = hook.get("command") or hook.get("prompt") or hook.get("url") or kind
    return f"{kind} hook {str(what)[:80]!r}"
