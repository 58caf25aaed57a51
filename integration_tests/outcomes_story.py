"""dp stats after one scripted session in a real agent binary (issue 51), the same story in every agent's suite.

Three rules act in the session: one that helps (``grep → rg``, a person's, with rg on this machine), one that
hurts (``python → python3``, made by ``dp suggest --apply`` from two earlier sessions where python was missing
and python3 worked; on the machine now python works and python3 is broken, so each rewritten call fails and the
model runs python by its path instead: it undoes the rewrite) and a learned answer after a failure (``gradle`` is
missing, the repository's ``./gradlew`` worked in two earlier sessions). ``dp stats --json`` must then count each
rule's actions and outcomes exactly, flag the hurtful rule and, since dp made it, switch it off and say so once.

The earlier sessions are fed to the real dp-capture as hook JSON (what they teach does not depend on the agent);
the session under test runs in the agent's real binary. Each suite gives ``session`` its way of running one
session, each call its own turn, and ``call(command)`` a shell call in its model's words.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent
HELPS, HURTS = "grep → rg", "python → python3"
_NOT_FOUND = "Exit code 127\n/bin/bash: line 1: {name}: command not found"
_EARLIER = ((("gradle -q test", "gradle"), "./gradlew -q test"), (("python scripts/hello.py", "python"),
                                                                  "python3 scripts/hello.py"))


def missing(user) -> str:
    """Why this machine cannot tell the story, or ''."""
    if not shutil.which("rg", path=user.env["PATH"]):
        return "grep → rg helps only on a machine with rg"
    if shutil.which("gradle", path=user.env["PATH"]):
        return "this machine has gradle: the call would not fail"
    return ""


def setup(user, *init_args) -> Path:
    """dp installed (``dp init`` with ``init_args``), the project, the three rules; returns python's path."""
    from learned_answers import without_python

    without_python(user)  # as on the machine of the earlier sessions
    user.init(*init_args)
    user.dp("alias", "--cmd", "grep", "--replace", "rg")
    project = user.project
    for folder in (".git", "src", "scripts", "node_modules/left-pad", "build"):
        (project / folder).mkdir(parents=True, exist_ok=True)
    (project / "src" / "main.py").write_text("# TODO: handle errors\n")
    (project / "scripts" / "hello.py").write_text("print('hello')\n")
    (project / "scripts" / "report.py").write_text("print('report')\n")
    (project / "README.md").write_text("# app\n")
    (project / "build" / "app.bin").write_bytes(bytes(range(256)))
    user.program("python3", "echo 'python3 ran'")
    (project / "gradlew").write_text("#!/bin/sh\necho BUILD SUCCESSFUL\n")
    (project / "gradlew").chmod(0o755)
    for name in ("earlier-1", "earlier-2"):
        _earlier(user, name)
    found = json.loads(user.dp("suggest", "--json").stdout)
    [made] = [item for item in found if item["alias"] == ["--cmd", "python", "--replace", "python3"]]
    user.dp("suggest", "--apply", made["id"], "--act")
    # The machine now: python works, python3 is broken.
    user.program("python3", "echo 'python3: error while loading shared libraries' >&2; exit 1")
    return user.program("python", f"exec {shlex.quote(sys.executable)} \"$@\"")


def _earlier(user, session: str) -> None:
    """An earlier session: ``gradle`` and ``python`` missing, the agent then ran ./gradlew and python3."""
    base = {"session_id": session, "transcript_path": "", "cwd": str(user.project), "permission_mode": "default",
            "tool_name": "Bash"}
    calls = [(failed, {"hook_event_name": "PostToolUseFailure", "error": _NOT_FOUND.format(name=name),
                       "is_interrupt": False}) for (failed, name), _ in _EARLIER]
    calls += [(fixed, {"hook_event_name": "PostToolUse", "tool_response": {"stdout": "ok", "stderr": ""}})
              for _, fixed in _EARLIER]
    order = [calls[0], calls[2], calls[1], calls[3]]  # each failure, then its fix
    for number, (command, event) in enumerate(order):
        payload = {**base, **event, "tool_input": {"command": command}, "tool_use_id": f"toolu_{session}_{number}"}
        proc = subprocess.run([str(BIN / "dp-capture")], input=json.dumps(payload), capture_output=True, text=True,
                              env=user.env, timeout=60)
        assert proc.returncode == 0, proc.stderr


def commands(python: Path) -> list[str]:
    """The session's calls: rg helps; python is rewritten, fails and is undone, twice; gradle fails and the model
    follows the answer."""
    return ["grep -rn TODO src", "python scripts/hello.py", f"{python} scripts/hello.py", "python scripts/report.py",
            f"{python} scripts/report.py", "gradle -q build", "./gradlew -q build"]


# Whether each call failed as the agent saw it.
FAILED = [False, True, False, True, False, True, False]


def check(user) -> dict:
    """``dp stats`` after the session: the exact counts, the flag, the switch-off and its one message."""
    text = user.dp("stats")
    said = [line for line in text.stderr.splitlines() if line.startswith("dp switched off rule")]
    assert len(said) == 1 and said[0].startswith(f"dp switched off rule {HURTS}, which dp suggest --apply made: "
                                                 "2 of its 2 rewritten calls were made worse"), text.stderr
    assert "dp switched off" not in user.dp("stats").stderr  # once
    report = json.loads(user.dp("stats", "--json").stdout)
    assert (report["rewritten"], report["blocked"], report["answered"], report["answers_followed"]) == (3, 0, 1, 1)
    keys = ("actions", "succeeded", "failed", "unknown", "undone", "harmed", "hurts", "origin", "switched_off")
    rewrites = [{key: rule[key] for key in ("rule", *keys)} for rule in report["rules"] if rule["kind"] == "rewrite"]
    assert rewrites == [
        {"rule": HURTS, "actions": 2, "succeeded": 0, "failed": 2, "unknown": 0, "undone": 2, "harmed": 2,
         "hurts": True, "origin": "suggest", "switched_off": True},
        {"rule": HELPS, "actions": 1, "succeeded": 1, "failed": 0, "unknown": 0, "undone": 0, "harmed": 0,
         "hurts": False, "origin": "", "switched_off": False}], report["rules"]
    [answer] = [rule for rule in report["rules"] if rule["kind"] == "answer"]
    assert answer["rule"].endswith("gradle → ./gradlew"), answer
    assert {key: answer[key] for key in ("actions", "failed", "followed", "followed_and_worked")} == \
        {"actions": 1, "failed": 1, "followed": 1, "followed_and_worked": 1}, answer
    assert [entry["rule"] for entry in report["switched_off"]] == [HURTS]
    return report


def counts(report: dict) -> dict:
    """A dp stats report without what differs from run to run (its start, the calls seen outside the session)."""
    return {key: value for key, value in report.items() if key not in ("since", "calls_seen")}


def same_from_session_files(user, report: dict, option: str, key: str) -> None:
    """The calls the hooks captured removed, ``dp ingest OPTION`` reads the agent's session file back: ``dp stats``
    counts exactly what it counted with the hooks (``report``)."""
    user.dp("desires", "--purge", "--yes")
    ingested = json.loads(user.dp("ingest", option, "--json").stdout)[key]
    assert ingested["files"] == 1 and ingested["added"] > 0, ingested
    now = counts(json.loads(user.dp("stats", "--json").stdout))
    assert now == counts(report), json.dumps([now, counts(report)])
