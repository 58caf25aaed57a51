"""The team tests' PostgreSQL: one throwaway cluster per xdist worker, one database per test."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from pathlib import Path

import pytest

from team.postgres import remove, start_cluster

_numbers = itertools.count()
LATEST = len(list((Path(__file__).resolve().parents[2] / "migrations" / "postgres").glob("[0-9]*.sql")))


@pytest.fixture(scope="session")
def cluster():
    found = start_cluster(pytest.skip)
    yield found
    remove(found)


@pytest.fixture
def team_db(cluster):
    """A new database whose owner ran ``dp team migrate``'s schema: returns its name."""
    name = f"team_{next(_numbers)}"
    cluster.sql(f"CREATE DATABASE {name}")
    yield name
    cluster.sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def migrated(cluster, team_db):
    """``team_db`` with the schema in place, migrated by its owner through ``dp team migrate``."""
    proc = subprocess.run([str(Path(sys.executable).parent / "dp"), "team", "migrate",
                           cluster.url("dp_admin", team_db)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PGPASSWORD": "admin-secret"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"{cluster.url('dp_admin', team_db)}: team schema version 0 → {LATEST}.\n"
    return team_db


def add_member(cluster, database: str, role: str, password: str) -> None:
    """A login role in dp_member (the database's owner's job, as docs/team.md shows)."""
    exists = cluster.sql("SELECT 1 FROM pg_roles WHERE rolname = %s", params=(role,))
    if not exists:
        cluster.sql(f"CREATE ROLE {role} LOGIN PASSWORD '{password}'")
    cluster.sql(f"GRANT dp_member TO {role}", database)
    cluster.sql(f"GRANT CONNECT ON DATABASE {database} TO {role}")
