"""``dp report --team`` on a real PostgreSQL: two members' captured paths, synced, drawn in one page that a
real headless Chromium opens with no network (issue 51)."""

from __future__ import annotations

import json
import shutil

import pytest
from browser_support import Document, visit
from outcomes_support import Session, project

from team.test_team import Member
from team.test_team_outcomes import working


def test_the_team_report_draws_the_paths_people_share(tmp_path, cluster, migrated):
    ann, bob = Member(tmp_path, "ann", cluster, migrated), Member(tmp_path, "bob", cluster, migrated)
    for person in (ann, bob):
        person.typo(tmp_path, f"{person.home.name}-s")
        person.dp("team", "connect", person.url, cwd=tmp_path)
        person.dp("team", "sync", cwd=tmp_path)

    data = json.loads(ann.dp("report", "--team", "--json", cwd=tmp_path).stdout)
    assert data["scope"] == "team"
    assert [(path["shape"], path["count"], path["people"], path["covered_by"]) for path in data["paths"]] == [
        ("git comit -m", 2, 2, None)]
    assert data["timeline"]["measure"] == "new paths" and sum(map(sum, (series["counts"] for series in
                                                                          data["timeline"]["series"]))) == 1
    assert data["notes"] == [] and data["figures"]["rewritten"] == 0, "no member's rule acted"

    page = tmp_path / "team.html"
    assert ann.dp("report", "--team", "-o", str(page), cwd=tmp_path).stdout == f"{page}\n"
    seen = visit(page, tmp_path / "profile")
    assert seen.console == [] and seen.page_requests == []
    dom = Document(seen.dom)
    assert dom.body["data-state"] == "drawn"
    assert [dom.by_id[chart]["data-state"] for chart in ("chart-timeline", "chart-paths", "chart-rules",
                                                          "chart-watched")] == ["drawn", "drawn", "empty", "empty"]
    assert "git comit -m" in dom.cells and "2" in dom.cells


def test_the_team_report_draws_what_the_members_rules_did(tmp_path, cluster, migrated):
    """Ann's grep → rg helps and cat → false hurts, Bob's grep → rg helps: after both sync, Bob's page of the
    team draws each rule's effect as dp stats --team counts it, the hurtful rule marked."""
    if not shutil.which("rg"):
        pytest.skip("grep → rg helps only on a machine with rg")
    ann, bob = Member(tmp_path, "ann", cluster, migrated), Member(tmp_path, "bob", cluster, migrated)
    working(ann, tmp_path, "ann-1")
    bob.dp("alias", "--cmd", "grep", "--replace", "rg", cwd=bob.home)
    assert Session(bob.env, project(tmp_path / "bob-work"), "bob-1").call("grep -rn TODO src")[1] == 0
    for member in (ann, bob):
        member.dp("team", "connect", member.url, cwd=member.home)
        member.dp("team", "sync", cwd=member.home)

    team = json.loads(bob.dp("stats", "--team", "--json", cwd=bob.home).stdout)
    page = tmp_path / "team.html"
    bob.dp("report", "--team", "-o", str(page), cwd=bob.home)
    seen = visit(page, tmp_path / "profile")
    assert seen.console == [] and seen.page_requests == []
    dom = Document(seen.dom)
    assert dom.by_id["chart-rules"]["data-state"] == "drawn" and int(dom.by_id["chart-rules"]["data-painted"]) > 500
    rows = dom.cells
    for rule in team["rules"]:  # each rule's row: its name (marked when it hurts) and dp stats --team's counts
        at = rows.index(rule["rule"] + ("  ⚠ hurts" if rule["hurts"] else ""))
        assert rows[at + 3:at + 7] == [str(rule[key]) for key in ("actions", "succeeded", "failed", "unknown")]
