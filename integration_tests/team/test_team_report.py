"""``dp report --team`` on a real PostgreSQL: two members' captured paths, synced, drawn in one page that a
real headless Chromium opens with no network (issue 51)."""

from __future__ import annotations

import json

from browser_support import Document, visit

from team.test_team import Member


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
