"""The ``latency`` line of ``dp doctor``: one real call of the hook, timed.

The installed command is run when it is a plain pave-check command that
cannot be someone else's program (a checked-out repository's project settings
could name any); otherwise this dp's own pave-check stands in for it.
"""

from __future__ import annotations

import os
import shlex
import shutil
from pathlib import Path

from dp.agents import settings as hook_settings
from dp.agents.executable import find_pave_check, hook_argv, hook_command
from dp.doctor.findings import ERROR, OK, WARNING, Finding
from dp.doctor.settings_files import SettingsFile, installed
from dp.errors import DpError

FAST_SECONDS = 0.2


def check_latency(files: list[SettingsFile], db_path: Path, cwd: Path) -> Finding:
    """Time one call of the installed hook command (after one warm-up call)."""
    from dp.install.hook import db_option
    from dp.install.hookcall import call, sample_payload

    try:
        own, missing = find_pave_check(), ""
    except DpError as exc:
        own, missing = None, exc.message
    command, label, skipped = _installed_command(files, own)
    if command is None:
        if own is None:
            return Finding("latency", ERROR, missing, "reinstall dp")
        command = shlex.split(hook_command(own, db_option(db_path)))
        label = "pave-check" + (f" ({skipped})" if skipped else " (not installed)")
    payload = sample_payload("Bash", {"command": "git status", "description": "dp doctor latency probe"}, cwd)
    call(command, payload, cwd)
    return _with_gate(_judge(call(command, payload, cwd), label, shlex.join(command)), db_path)


def _with_gate(finding: Finding, db_path: Path) -> Finding:
    """Add the state of the hook's gate (dp.hook.gate) to a call that answered: a gate that is
    missing or stale is a warning, since every call the rules never name then opens the store
    (correct, but slower). The gate's state is judged whatever the call's speed, so a slow
    machine never hides a missing gate, and ``details.gate`` says it in every case."""
    from dp.hook import gate

    if finding.status == ERROR or not Path(db_path).expanduser().is_file():
        return finding
    state = gate.state(db_path)
    details = {**finding.details, "gate": state}
    if state == "fresh":
        return Finding(finding.check, finding.status, finding.message, finding.fix, **details)
    return Finding("latency", WARNING,
                   f"{finding.message}, but the hook's gate beside the store is {state}: every call opens the store",
                   "start a new agent session (its SessionStart rewrites the gate) or change any rule", **details)


def _installed_command(files: list[SettingsFile], own) -> tuple[list[str] | None, str, str]:
    """(argv, label, why an entry was skipped) of the first installed PreToolUse command safe to run."""
    skipped = ""
    for file, event, _, hook in installed(files):
        if event != hook_settings.EVENT:
            continue
        argv = hook_argv(hook.get("command"))
        if argv is None:
            skipped = skipped or f"the entry in {file.where} is not a plain pave-check command, so it was not run"
        elif os.path.isabs(argv[0]) and not os.path.exists(argv[0]):
            skipped = skipped or f"the entry in {file.where} runs a program that is gone (see dangling)"
        elif file.scope in ("project", "local") and _real_program(argv[0]) != str(own):
            # A checked-out repository's settings could name any program.
            skipped = skipped or f"the entry in {file.where} names a program other than this dp's, so it was not run"
        else:
            return argv, "the installed hook", skipped
    return None, "", skipped


def _judge(result, label: str, command: str) -> Finding:
    """The finding for one timed call: did it answer properly, and how fast?"""
    millis = round(result.seconds * 1000)
    if result.error:
        return Finding("latency", ERROR, f"{label} {result.error}", "dp pave --hook (reinstall)", command=command)
    if result.returncode not in (0, 2):
        last = (result.stderr.strip().splitlines() or [""])[-1]
        return Finding(
            "latency",
            ERROR,
            f"{label} failed with exit {result.returncode}: {last}".rstrip(": "),
            "dp pave --hook (reinstall); if it persists, reinstall dp",
            command=command,
        )
    if result.stdout.strip() and result.output is None:
        return Finding(
            "latency", ERROR, f"{label} printed output that is not a JSON object", "reinstall dp", command=command
        )
    if result.seconds > FAST_SECONDS:
        return Finding(
            "latency",
            WARNING,
            f"one call of {label} took {millis} ms (every tool call pays this)",
            "make sure the hook command is not a shim and the store is on a local disk",
            milliseconds=millis,
            command=command,
        )
    return Finding("latency", OK, f"one call of {label} took {millis} ms", milliseconds=millis, command=command)


def _real_program(program: str) -> str:
    return os.path.realpath(shutil.which(program) or program)
