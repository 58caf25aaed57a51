"""The ``copilot`` lines of ``dp doctor``: dp's hooks for GitHub Copilot CLI, and whether they load.

Quiet for people who never installed dp into Copilot CLI: no hooks file of
dp's, no line. For each scope holding dp's entries (``~/.copilot/hooks/dp.json``,
the repository's ``.github/hooks/dp.json``) it checks what makes them work
there, each found problem with the command that fixes it:

* the file parses and holds both of pave-check's events (``preToolUse`` for
  rewrites and blocks, ``sessionStart`` for the corrections up front), and
  some scope runs dp-capture (user hooks load everywhere, so one is enough);
* each command's program exists and is executable, and the command ends in
  ``|| true`` — Copilot *denies* a tool call whose preToolUse hook exits
  non-zero, so an entry without it turns a missing dp into a session in which
  no tool runs;
* a repository's hooks load only in a trusted folder: doctor says whether
  this one is (``trustedFolders``, ``COPILOT_ALLOW_ALL=true``,
  ``GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true``) and how to make it so.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from dp.doctor.findings import ERROR, OK, WARNING, Finding
from dp.errors import DpError

CHECK = "copilot"


def check(db_path: Path, cwd: Path, rules) -> list[Finding]:
    from dp.agents import get

    agent = get("copilot")
    findings, captured, installed = [], False, False
    for scope in agent.scopes:
        found, hooks, capture = _check_scope(agent, scope, agent.hooks().config_path(scope, project_dir=cwd), cwd)
        findings += found
        installed, captured = installed or bool(hooks), captured or bool(capture)
    if installed and not captured:  # user hooks load everywhere: capture in either scope is enough
        findings.append(Finding(CHECK, WARNING, f"failed calls in {agent.display} are not recorded (no dp-capture "
                                                "entries)", "dp init --agent copilot"))
    return findings


def _check_scope(agent, scope: str, path: Path, cwd: Path) -> tuple[list[Finding], list, list]:
    """(findings, dp's pave-check entries, dp's capture entries) for one scope's hooks file."""
    from dp.agents.settings import capture_hooks, dp_hooks, parse_settings
    from dp.files import read_bytes

    fix = f"dp pave --hook --agent copilot{' --scope project' if scope == 'project' else ''}"
    try:
        settings = parse_settings(read_bytes(path), path)
    except DpError as exc:
        return [Finding(CHECK, ERROR, f"{agent.display} hooks file: {exc.message}", fix)], [], []
    hooks, capture = dp_hooks(settings), capture_hooks(settings)
    if not hooks and not capture:
        return [], [], []
    findings = [Finding(CHECK, OK, f"installed in {path} ({scope} scope) for {agent.display}")]
    findings += _missing_events(path, hooks, fix)
    for event, _, hook in hooks + capture:
        findings += _check_command(path, event, hook.get("command"), fix)
    loads, why = agent.load_requirement(scope, cwd)
    findings.append(Finding(CHECK, OK if loads else WARNING, why,
                            "" if loads else f"copilot -p … --trust-folder (or trust {cwd} once interactively)"))
    return findings, hooks, capture


def _missing_events(path: Path, hooks, fix: str) -> list[Finding]:
    from dp.agents.copilot.wire import PRE_TOOL_USE, SESSION_START_HOOK

    present = {event for event, _, _ in hooks}
    return [Finding(CHECK, ERROR, f"{path}: no {event} entry running pave-check", fix)
            for event in (PRE_TOOL_USE, SESSION_START_HOOK) if event not in present]


def _check_command(path: Path, event: str, command, fix: str) -> list[Finding]:
    from dp.agents.copilot.hooks import FAIL_OPEN
    from dp.agents.settings import command_words

    words = command_words(command)
    program = os.path.expanduser(os.path.expandvars(words[0])) if words else ""
    resolved = program if os.path.isabs(program) else shutil.which(program) if program else None
    findings = []
    if not resolved or not os.path.isfile(resolved) or not os.access(resolved, os.X_OK):
        findings.append(Finding(CHECK, ERROR, f"{path}: {event} runs {program or command!r}, which does not exist "
                                              "or is not executable", fix))
    if not str(command).rstrip().endswith(FAIL_OPEN.strip()):
        findings.append(Finding(CHECK, WARNING, f"{path}: the {event} command does not end in '{FAIL_OPEN.strip()}': "
                                                "Copilot CLI denies every tool call when that hook cannot start",
                                fix))
    return findings
