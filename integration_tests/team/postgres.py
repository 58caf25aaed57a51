"""A throwaway PostgreSQL cluster for the team tests: the Debian server's initdb and pg_ctl in a temp dir.

``.ci/run`` installs Debian's ``postgresql`` package; its programs live in
``/usr/lib/postgresql/<major>/bin`` (not on PATH). The cluster listens on
127.0.0.1 at a free port with password authentication (scram), so members
connect exactly as they would to a team's server, their password in
``PGPASSWORD``. PostgreSQL refuses to run as root: as root (CI), the cluster
runs as ``nobody`` through ``runuser``; if that is impossible the tests skip
saying why. One cluster per pytest-xdist worker (a session fixture), one
database per test.
"""

from __future__ import annotations

import glob
import os
import shlex
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

ADMIN = "dp_admin"
ADMIN_PASSWORD = "admin-secret"
UNPRIVILEGED = "nobody"


def bin_dir() -> Path | None:
    """The newest installed server's programs (``/usr/lib/postgresql/N/bin``), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda path: int(path.split("/")[-3]))
    return Path(found[-1]).parent if found else None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Cluster:
    """One initdb'd cluster: ``start``, ``stop(mode)``, ``admin_url(database)``, ``url(role, database)``."""

    def __init__(self, root: Path, programs: Path):
        self.root, self.programs = root, programs
        self.data = root / "data"
        self.port = free_port()
        self.as_user = [] if os.geteuid() != 0 else ["runuser", "-u", UNPRIVILEGED, "--"]

    def _run(self, *argv, check=True, timeout=120):
        return subprocess.run([*self.as_user, *map(str, argv)], capture_output=True, text=True, check=check,
                              timeout=timeout, cwd="/", env={**os.environ, "LC_ALL": "C.UTF-8", "TZ": "UTC"})

    def init(self) -> None:
        password = self.root / "pwfile"
        password.write_text(ADMIN_PASSWORD + "\n")
        if self.as_user:
            shutil.chown(self.root, UNPRIVILEGED)
            shutil.chown(password, UNPRIVILEGED)
        self._run(self.programs / "initdb", "-D", self.data, "-U", ADMIN, "--pwfile", password,
                  "--auth=scram-sha-256", "-E", "UTF8", "--no-sync")

    def start(self) -> None:
        options = (f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.root} "
                   "-c fsync=off -c full_page_writes=off -c max_connections=40 -c shared_buffers=32MB")
        self._run(self.programs / "pg_ctl", "-D", self.data, "-l", self.root / "log", "-o", options, "-w",
                  "-t", "60", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run(self.programs / "pg_ctl", "-D", self.data, "-m", mode, "-w", "stop", check=False)

    def watch(self, owner: int) -> None:
        """Stop the cluster and remove its directory once the process ``owner`` is gone: a worker
        killed mid-run (xdist's, a Ctrl-C'd pytest) runs no teardown, and its postgres would
        outlive it. A detached ``sh`` polls the owner's pid; after a normal teardown it finds
        nothing left to stop and ends with its owner."""
        stop = shlex.join([*self.as_user, str(self.programs / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                           "-w", "stop"])
        script = (f"while kill -0 {owner} 2>/dev/null; do sleep 2; done; {stop} >/dev/null 2>&1; "
                  f"rm -rf {shlex.quote(str(self.root))}")
        subprocess.Popen(["sh", "-c", script], cwd="/", start_new_session=True, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def admin_url(self, database: str = "postgres") -> str:
        return f"postgresql://{ADMIN}:{ADMIN_PASSWORD}@127.0.0.1:{self.port}/{database}"

    def url(self, role: str, database: str) -> str:
        """The URL a member gives dp (no password: that goes in PGPASSWORD)."""
        return f"postgresql://{role}@127.0.0.1:{self.port}/{database}"

    def sql(self, statement: str, database: str = "postgres", params=()):
        import psycopg

        with psycopg.connect(self.admin_url(database), autocommit=True) as conn:
            cursor = conn.execute(statement, params)
            return cursor.fetchall() if cursor.description else None


def start_cluster(skip):
    """A started cluster in a new temp dir, or ``skip(reason)`` when this machine cannot run one."""
    programs = bin_dir()
    if programs is None:
        skip("needs PostgreSQL's server programs (Debian: apt-get install postgresql; .ci/run does)")
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        skip("PostgreSQL refuses to run as root and runuser is missing to run it as nobody")
    root = Path(tempfile.mkdtemp(prefix="dp-pg-"))
    os.chmod(root, 0o755)
    cluster = Cluster(root, programs)
    try:
        cluster.init()
        cluster.start()
    except subprocess.CalledProcessError as exc:
        shutil.rmtree(root, ignore_errors=True)
        skip(f"cannot start a throwaway PostgreSQL cluster: {exc.stderr.strip()[-300:]}")
    cluster.watch(os.getpid())
    return cluster


def remove(cluster: Cluster) -> None:
    cluster.stop("immediate")
    shutil.rmtree(cluster.root, ignore_errors=True)
