"""The team tests' PostgreSQL: one throwaway cluster per xdist worker, one database per test."""

from __future__ import annotations

import itertools

import pytest

from team.postgres import remove, start_cluster

_numbers = itertools.count()


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


def add_member(cluster, database: str, role: str, password: str) -> None:
    """A login role in dp_member (the database's owner's job, as docs/team.md shows)."""
    exists = cluster.sql("SELECT 1 FROM pg_roles WHERE rolname = %s", params=(role,))
    if not exists:
        cluster.sql(f"CREATE ROLE {role} LOGIN PASSWORD '{password}'")
    cluster.sql(f"GRANT dp_member TO {role}", database)
    cluster.sql(f"GRANT CONNECT ON DATABASE {database} TO {role}")
