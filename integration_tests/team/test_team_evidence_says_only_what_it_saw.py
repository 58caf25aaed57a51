"""What reaches the team is what the captured messages said, and the team learns what a person would.

Issue 49, finding 8. A member's agent fails in the ways agents do (a missing ``tsc`` whatever its
flags, curl rejecting an option, ``npx tsc``), captured by the real ``dp-capture`` or read from real
session files by ``dp ingest``; the member syncs to a real PostgreSQL; the team's views are compared
with what was seen, and ``dp suggest --team`` with the member's own ``dp suggest`` on the same sessions.
"""

from __future__ import annotations

import json
from pathlib import Path

from capture_support import failure, transcript_lines

from team.test_team import Member

TSC_MISSING = "Exit code 127\n/bin/bash: line 1: tsc: command not found"
# curl 8's own words for an option it does not have, printed back with the value the agent typed.
CURL_REJECTS = ("Exit code 2\ncurl: option --token=ghp_notarealtoken0123456789abcdef0123: is unknown\n"
                "curl: try 'curl --help' or 'curl --manual' for more information")


def only_npx(member: Member) -> None:
    """The member's PATH has npx (a stand-in that runs nothing) and no tsc: the project's own
    TypeScript runs through npx, as on a machine with node and no global TypeScript."""
    directory = member.home / "only-npx"
    directory.mkdir()
    stub = directory / "npx"
    stub.write_text("#!/bin/sh\nexit 0\n")
    stub.chmod(0o755)
    member.env["PATH"] = str(directory)


def planned(member: Member) -> list[dict]:
    """Every row ``dp team sync --dry-run --json`` says it would upload."""
    [plan] = json.loads(member.dp("team", "sync", "--dry-run", "--json", cwd=member.home).stdout).values()
    return plan["events"]


def test_a_hint_only_when_the_message_rejected_that_option_and_one_path_per_missing_program(
        tmp_path, cluster, migrated):
    ann = Member(tmp_path, "ann", cluster, migrated)
    work = str(tmp_path / "app")
    ann.capture(failure("tsc --noEmit", error=TSC_MISSING, session="a1", tool_use_id="a1-1", cwd=work))
    ann.capture(failure("tsc -p tsconfig.build.json", error=TSC_MISSING, session="a2", tool_use_id="a2-1", cwd=work))
    ann.capture(failure("curl --token=ghp_notarealtoken0123456789abcdef0123 https://api.example.com/v1/jobs",
                        error=CURL_REJECTS, session="a3", tool_use_id="a3-1", cwd=work))
    ann.dp("team", "connect", ann.url, cwd=ann.home)

    rows = {(row["command"], tuple(json.loads(row["flags"]))): row for row in planned(ann)}
    assert {shape: (row["error_class"], row["error_hint"]) for shape, row in rows.items()} == {
        ("tsc", ("--noEmit",)): ("command not found", ""),  # not found: no option was rejected
        ("tsc", ("-p",)): ("command not found", ""),
        ("curl", ("--token",)): ("unknown option", "unknown option: --token"),
    }
    assert "ghp_" not in json.dumps(list(rows.values()))

    ann.dp("team", "sync", cwd=ann.home)
    paths = json.loads(ann.dp("paths", "--team", "--json", cwd=ann.home).stdout)
    assert sorted((item["shape"], item["error_class"], item["count"]) for item in paths) == [
        ("curl --token", "unknown option", 1), ("tsc", "command not found", 2)]
    hints = {item["shape"]: item["hint"] for item in json.loads(ann.dp("desires", "--team", "--json",
                                                                        cwd=ann.home).stdout)}
    assert hints == {"tsc --noEmit": "", "tsc -p": "", "curl --token": "unknown option: --token"}


def _sessions(root: Path, calls_of: dict) -> str:
    """Claude Code session files, one project directory per session; returns the projects directory."""
    for number, (session, calls) in enumerate(calls_of.items()):
        directory = root / f"-work-app{number}"
        directory.mkdir(parents=True)
        (directory / f"{session}.jsonl").write_text(transcript_lines(session, calls, cwd=f"/work/app{number}"))
    return str(root)


def test_the_team_suggests_what_the_person_suggests_on_the_same_sessions(tmp_path, cluster, migrated):
    """Two sessions where ``tsc`` was not found and ``npx tsc`` then worked, read by ``dp ingest``: the
    member's ``dp suggest`` proposes ``tsc`` → ``npx tsc``, and so does ``dp suggest --team`` once
    the same sessions are synced (docs/team.md: the team's suggestions follow the person's rules)."""
    ann = Member(tmp_path, "ann", cluster, migrated)
    only_npx(ann)
    calls = [("Bash", {"command": "tsc -p tsconfig.json --noEmit"}, TSC_MISSING, True),
             ("Bash", {"command": "ls src"}, "index.ts", False),
             ("Bash", {"command": "npx tsc -p tsconfig.json --noEmit"}, "", False)]
    ann.dp("ingest", "--claude-transcripts", _sessions(tmp_path / "projects", {"s1": calls, "s2": calls}),
           cwd=ann.home)

    mine = json.loads(ann.dp("suggest", "--json", cwd=ann.home).stdout)
    assert [(item["kind"], item["alias"]) for item in mine] == [
        ("recipe", ["--recipe", "tsc", "npx tsc {{ args }}"])]

    ann.dp("team", "connect", ann.url, cwd=ann.home)
    worked = {(command, subcommand, tuple(flags))
              for row in planned(ann) for command, subcommand, flags in json.loads(row["then_shapes"])}
    assert worked == {("npx tsc", "", ("-p", "--noEmit"))}  # the program npx ran, kept
    ann.dp("team", "sync", cwd=ann.home)
    team = json.loads(ann.dp("suggest", "--team", "--json", cwd=ann.home).stdout)
    assert [(item["kind"], item["alias"], item["people"]) for item in team] == [
        ("recipe", ["--recipe", "tsc", "npx tsc {{ args }}"], 1)]
