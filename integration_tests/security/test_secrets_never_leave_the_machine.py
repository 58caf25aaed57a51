"""Issue 46, finding 6: secrets left the machine, and were stored verbatim on it.

``mysql -uroot -pHunter2Secret prod`` went to the team database as the flags
``["-uroot", "-pHunter2Secret"]`` with the hint ``unknown option:
-pHunter2Secret``; ``AWS_SECRET_ACCESS_KEY=… aws s3 ls``, ``curl -u admin:pass``,
``sshpass -p pass``, ``docker login -p pass``, ``redis-cli -a pass`` and ``npm
config set //registry…/:_authToken npm_…`` were stored as typed.

Now a secret is redacted before anything is stored (``dp.capture.redact``, by
its place in the command through ``dp.shell.secrets``, by its shape, and by
its value wherever the call repeats it), a shape keeps an option's name and
never its value, and the upload is built from an allowlist of checked fields
with options as names alone and hints from a fixed vocabulary.

What is checked is everything dp keeps and sends: every column of every row
of every table of the real SQLite store, the rows ``dp team sync --dry-run``
prints (the upload builder's own output), and the hints in them. The issue's
commands go through the real ``dp-capture`` with Claude Code's hook JSON; the
property test plants 10,000 commands' worth of random secrets (``planted.py``)
through the function the hook calls, and a sample through the real process.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from capture_support import CAPTURE_BIN, failure, success
from hook_support import BIN, isolated_env

from security.planted import Call, Planter, windows

UNREACHABLE = "postgresql://alice@127.0.0.1:9/dp"  # nothing listens: a sync plans, never sends
NPM_TOKEN = "npm_" + "Q7r2Kd9XvLp4Wz8Nc3Bt6Hy1Fs5Jm0Ga2Ue7"
AWS_SECRET = "wJalrXUtnFEMIK7MDENGbPxRfiCYzQ8vEXAMPLE"

# The issue's commands: (command, error a program prints for it, the secret, the option names uploaded).
ISSUE_COMMANDS = [
    ("mysql -uroot -pHunter2Secret prod", "mysql: [ERROR] unknown option '-pHunter2Secret'.", "Hunter2Secret",
     ["-u", "-p"]),
    (f"AWS_SECRET_ACCESS_KEY={AWS_SECRET} aws s3 ls", "aws: error: argument command: Invalid choice", AWS_SECRET, []),
    ("curl -u admin:Hunter2Secret https://api.example.com/v1", "curl: (22) The requested URL returned error: 401",
     "Hunter2Secret", ["-u"]),
    ("sshpass -p Hunter2Secret ssh deploy@10.0.0.5 uptime", "Permission denied, please try again.", "Hunter2Secret",
     ["-p"]),
    ("docker login -u bot -p Hunter2Secret registry.example.com",
     "Error response from daemon: Get \"https://registry.example.com/v2/\": unauthorized", "Hunter2Secret",
     ["-u", "-p"]),
    ("redis-cli -a Hunter2Secret ping", "AUTH failed: WRONGPASS invalid username-password pair", "Hunter2Secret",
     ["-a"]),
    (f"npm config set //registry.npmjs.org/:_authToken {NPM_TOKEN}", "npm error code E401", NPM_TOKEN, []),
]


def store_text(db: Path) -> str:
    """Every column of every row of every table of the store, as one text (a JSON value also with
    its strings decoded, so that a secret holding a quote is found however it was escaped)."""
    conn = sqlite3.connect(db)
    try:
        tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        parts = []
        for table in tables:
            for row in conn.execute(f'SELECT * FROM "{table}"'):
                for value in row:
                    parts.append("" if value is None else str(value))
                    # a decoded string JSON wrote as it is is in the text already
                    parts.extend(text for text in decoded(value) if json.dumps(text, ensure_ascii=False)[1:-1] != text)
        return "\0".join(parts)
    finally:
        conn.close()


def decoded(value) -> list[str]:
    """The strings inside ``value`` when it is JSON text."""
    try:
        found = json.loads(value) if isinstance(value, str) and value[:1] in "[{\"" else None
    except ValueError:
        return []
    strings, stack = [], [found]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            strings.append(item)
        elif isinstance(item, dict):
            stack.extend([*item.keys(), *item.values()])
        elif isinstance(item, list):
            stack.extend(item)
    return strings


def leaked(secrets, *texts: str) -> list[str]:
    """The secrets any piece of which (8 characters, mostly letters and digits) occurs in ``texts``."""
    pieces: dict[str, str] = {}
    for secret in secrets:
        for piece in windows(secret):
            pieces.setdefault(piece, secret)
    found = set()
    for text in texts:
        for part in set(text.split("\0")):
            grams = {part[i : i + 8] for i in range(len(part) - 7)}
            found.update(pieces[piece] for piece in grams & pieces.keys())
    return sorted(found)


def fields(rows) -> str:
    """Every field of every upload row, as one text."""
    return "\0".join("\0".join(map(str, row)) for row in rows)


def dp(env: dict, *args: str) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(BIN / "dp"), *args], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc


def planned_upload(env: dict) -> tuple[list[dict], str]:
    """(the event rows ``dp team sync --dry-run --json`` would upload, its text output — every row, the
    actions' too, so a secret in any of them shows) for the store in ``env``."""
    dp(env, "team", "connect", UNREACHABLE)
    plan = json.loads(dp(env, "team", "sync", "--dry-run", "--json").stdout)[UNREACHABLE]
    return plan["events"], json.dumps(plan["actions"]) + dp(env, "team", "sync", "--dry-run").stdout


def capture_process(env: dict, payload) -> None:
    proc = subprocess.run([str(CAPTURE_BIN)], input=json.dumps(payload).encode(), capture_output=True, env=env,
                          timeout=120)
    assert (proc.returncode, proc.stderr) == (0, b""), proc.stderr


@pytest.mark.parametrize("command, error, secret, names", ISSUE_COMMANDS, ids=[c[0].split()[0].split("=")[0] for c in ISSUE_COMMANDS])
def test_the_issues_commands_are_stored_and_planned_without_their_secret(tmp_path, command, error, secret, names):
    env = isolated_env(tmp_path)
    echoed = f"Exit code 1\n{error}\n+ {command}"  # as a traced script would print it
    capture_process(env, failure(command, error=echoed, session="s1", tool_use_id="t1", cwd=str(tmp_path)))
    capture_process(env, success(command, session="s1", tool_use_id="t2", cwd=str(tmp_path)))  # kept: follows a failure
    capture_process(env, success(command, session="s2", tool_use_id="t3", cwd=str(tmp_path)))  # a shape only

    stored = store_text(Path(env["DP_DB"]))
    assert secret not in stored and secret[:8] not in stored
    program = next(word for word in command.split() if "=" not in word)
    assert "[redacted]" in stored and f"{program} " in stored  # the rest of the command is kept

    rows, text = planned_upload(env)
    assert len(rows) >= 3
    uploaded = json.dumps(rows) + text
    assert secret not in uploaded and not leaked([secret], uploaded)
    failed = next(row for row in rows if row["outcome"] == "failure")
    assert json.loads(failed["flags"]) == names  # option names, never their values


def test_a_password_glued_to_its_option_is_uploaded_as_the_options_name_and_hinted_as_it(tmp_path):
    """The issue's exact case: the flags ``["-uroot","-pHunter2Secret"]`` and the hint ``unknown option:
    -pHunter2Secret`` become ``["-u", "-p"]`` and ``unknown option: -p``."""
    env = isolated_env(tmp_path)
    capture_process(env, failure("mysql -uroot -pHunter2Secret prod",
                                 error="Exit code 7\nmysql: unknown option '-pHunter2Secret'", cwd=str(tmp_path)))
    [row], text = planned_upload(env)
    assert (row["command"], json.loads(row["flags"]), row["error_class"], row["error_hint"]) == (
        "mysql", ["-u", "-p"], "unknown option", "unknown option: -p")
    assert "mysql -u -p" in text and "Hunter" not in text


def test_the_upload_is_built_from_an_allowlist_of_checked_fields(tmp_path):
    """What a row may hold is what ``UPLOAD_FIELDS`` lets through: no other field, and a value that is
    not a name (a command word, an option, a hint line) does not leave as it was."""
    from dp.team.shapes import EVENT_FIELDS, UPLOAD_FIELDS, upload_row

    good = {"machine": "a" * 32, "event_id": "b" * 32, "repository": "", "session": "c" * 16, "outcome": "failure",
            "tool_name": "Bash", "command": "mysql", "subcommand": "", "flags": json.dumps(["-u", "-p"]),
            "input_keys": json.dumps(["command", "description"]), "error_class": "unknown option",
            "error_hint": "unknown option: -p", "then_shapes": json.dumps([["mysql", "", ["-u", "-p"]]]),
            "happened_at": "2026-11-27T10:20:00.000001Z"}
    assert tuple(UPLOAD_FIELDS) == EVENT_FIELDS and upload_row(good) == tuple(good.values())
    hostile = {**good, "command": "Hunter2 Secret", "subcommand": "x=Hunter2", "flags": json.dumps(["-p", "-p=Hunter2"]),
               "input_keys": json.dumps(["command", "k Hunter2"]), "error_class": "Hunter2",
               "error_hint": "unknown option: -p\nunknown option: -pHunter2Secret x\nHunter2 said hello",
               "then_shapes": json.dumps([["mysql", "Hunter2=", ["-p", "Hunter2 x"]]])}
    row = dict(zip(EVENT_FIELDS, upload_row(hostile)))
    assert "Hunter2" not in json.dumps(row)
    assert (row["command"], row["flags"], row["error_hint"], row["error_class"]) == ("", '["-p"]', "unknown option: -p",
                                                                                   "error")
    assert upload_row({**good, "happened_at": "Hunter2"}) is None  # a row that fails a required field is not sent
    with pytest.raises(ValueError):
        upload_row({**good, "error": "Hunter2"})  # no field outside the allowlist


def generated(seed: int, count: int) -> list[Call]:
    """``count`` calls in sessions of five: a failure, then four calls that succeed (the first kept whole,
    as what the agent ran next); one in twenty a non-Bash tool with secrets in its input."""
    planter = Planter(seed)
    calls = []
    for index in range(count):
        if index % 20 == 19:
            calls.append(planter.tool_call())
        else:
            calls.append(planter.call(failed=index % 5 == 0))
    return calls


def payload(call: Call, index: int, cwd: str) -> dict:
    session = f"session-{index // 5}"
    tool_input = call.tool_input if call.tool_input is not None else {"command": call.command,
                                                                      "description": "run the step"}
    if call.error is not None:
        return failure(tool=call.tool, tool_input=tool_input, error=call.error, session=session,
                       tool_use_id=f"toolu_{index}", cwd=cwd)
    return success(tool=call.tool, tool_input=tool_input, session=session, tool_use_id=f"toolu_{index}", cwd=cwd)


def test_ten_thousand_commands_with_planted_secrets_leave_none_in_the_store_the_upload_or_the_hints(tmp_path):
    """The property: whatever the program, option, quoting, wrapper or pipeline, no planted secret is
    found again. Volume goes through the function dp-capture calls for each payload
    (``dp.capture.hook.rows_for``) into the real store, one transaction, then the upload builder that
    ``dp team sync`` and its dry run use; the real process is the next test."""
    from dp.capture.events import keep_after_failures
    from dp.capture.hook import capture, rows_for
    from dp.store.connection import connect_for_writes
    from dp.store.desires import add
    from dp.team.sync import Router, pending

    started = time.monotonic()
    calls = generated(46_6, 10_000)
    secrets = sorted({secret for call in calls for secret in call.secrets})
    assert len(calls) == 10_000 and len(secrets) >= 10_000
    typed = "\0".join(call.command + "\0" + "\0".join(decoded(json.dumps(call.tool_input))) for call in calls)
    assert leaked(secrets, typed) == secrets  # the check finds every secret where it was planted

    env = isolated_env(tmp_path)
    db = env["DP_DB"]
    cwd = str(tmp_path)
    capture(db, json.dumps(payload(calls[0], 0, cwd)).encode())  # the hook's own entry: creates the store
    rows = [row for index, call in enumerate(calls[1:], 1) for row in rows_for(payload(call, index, cwd))]
    conn = connect_for_writes(db, 60_000)
    try:
        add(conn, list(keep_after_failures(rows)))
        stored = store_text(Path(db))
        router = Router(db, UNREACHABLE)
        upload = pending(db, conn, UNREACHABLE, router)
    finally:
        conn.close()
    hints = "\n".join(row[11] for row in upload)

    assert leaked(secrets, stored) == []
    assert leaked(secrets, fields(upload)) == []
    assert leaked(secrets, hints) == []
    # What is kept is still the shapes: the planted programs with their options' names, and the hints.
    flags = {(row[6], option) for row in upload for option in json.loads(row[8])}
    assert {("mysql", "-p"), ("sshpass", "-p"), ("redis-cli", "-a"), ("curl", "-u"), ("zip", "-P"),
            ("sqlcmd", "-P")} <= flags
    assert "unknown option: -p" in hints
    assert stored.count("[redacted]") > len(calls)
    assert time.monotonic() - started < 600  # a bound on the run, not a measurement


def test_the_real_dp_capture_and_dry_run_keep_no_planted_secret(tmp_path):
    """A sample through the real process: single payloads as Claude Code sends them, and arrays as dp's
    mod hands over a failure with the calls after it; then the real ``dp team sync --dry-run``."""
    calls = generated(46_7, 400)
    env = isolated_env(tmp_path)
    payloads = [payload(call, index, str(tmp_path)) for index, call in enumerate(calls)]
    for one in payloads[:40]:
        capture_process(env, one)
    for start in range(40, len(payloads), 16):
        capture_process(env, payloads[start : start + 16])
    secrets = sorted({secret for call in calls for secret in call.secrets})

    stored = store_text(Path(env["DP_DB"]))
    assert stored.count("toolu_") >= len(calls)  # every call was stored
    rows, text = planned_upload(env)
    assert len(rows) >= len(calls)
    assert leaked(secrets, stored) == []
    assert leaked(secrets, fields(row.values() for row in rows), text) == []
