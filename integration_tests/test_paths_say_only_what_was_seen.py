"""``dp paths``: one cause is one path, and a shape says what ran (issue 49, finding 8).

Failures as the real ``dp-capture`` receives them from Claude Code, read back through ``dp paths
--json``: a missing program is one path whatever flags each call had; a runner keeps the program it
runs (``npx tsc``); a script's options are not the interpreter's; an option curl rejects is an
unknown option.
"""

from __future__ import annotations

import json

from capture_support import failure, run_capture


def _capture(env, *payloads) -> None:
    for number, payload in enumerate(payloads):
        proc = run_capture({**payload, "session_id": f"s{number}", "tool_use_id": f"toolu_{number}"}, env=env)
        assert proc.returncode == 0, proc.stderr


def _paths(dp) -> dict:
    proc = dp("paths", "--json")
    assert proc.returncode == 0, proc.stderr
    return {item["shape"]: (item["error_class"], item["count"]) for item in json.loads(proc.stdout)}


def not_found(program: str, command: str) -> dict:
    return failure(command, f"Exit code 127\n/bin/bash: line 1: {program}: command not found")


def test_a_missing_program_is_one_path_whatever_its_flags(dp, env):
    _capture(env, not_found("tsc", "tsc -p tsconfig.build.json"), not_found("tsc", "tsc --noEmit"),
             not_found("tsc", "tsc"))
    assert _paths(dp) == {"tsc": ("command not found", 3)}


def test_a_runner_keeps_the_program_it_runs(dp, env):
    _capture(env,
             failure("npx tsc --noEmt", "Exit code 1\nerror TS5025: Unknown compiler option '--noEmt'. "
                                        "Did you mean 'noEmit'?"),
             failure("uv run pytest -q tests/unit", "Exit code 1\nerror: Failed to spawn: `pytest`"),
             failure("python3 -m pytest --lf", "Exit code 1\n/usr/bin/python3: No module named pytest"))
    assert set(_paths(dp)) == {"npx tsc --noEmt", "uv run pytest -q", "python3 -m pytest --lf"}


def test_a_scripts_options_are_not_the_interpreters(dp, env):
    _capture(env, not_found("python", "python scripts/build.py --verbose --out dist"),
             failure("python3 -u scripts/build.py --verbose", "Exit code 1\nTraceback (most recent call last):"),
             failure("node --require ./env.js server.js --port 3000", "Exit code 1\nError: listen EADDRINUSE"))
    assert _paths(dp) == {"python": ("command not found", 1), "python3 -u": ("non-zero exit", 1),
                          "node --require": ("non-zero exit", 1)}


def test_an_option_curl_rejects_is_an_unknown_option(dp, env):
    _capture(env, failure("curl --token=ghp_notarealtoken0123456789abcdef0123 https://api.example.com/v1/jobs",
                          "Exit code 2\ncurl: option --token=ghp_notarealtoken0123456789abcdef0123: is unknown\n"
                          "curl: try 'curl --help' or 'curl --manual' for more information"),
             failure("node --inpsect server.js", "Exit code 9\nnode: bad option: --inpsect"))
    assert _paths(dp) == {"curl --token": ("unknown option", 1), "node --inpsect": ("unknown option", 1)}
