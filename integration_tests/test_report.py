"""``dp report`` (issue 51): the page it writes, opened in a real headless Chromium with no network.

The data comes from real sessions through the real hooks (pave-check and dp-capture, as
``outcomes_support.Session`` runs them) in a real project: a rule that helps (grep → rg), one that
hurts (cat → false), a learned answer the agent follows, failures no rule covers, and a failed command
written to break out of the page (``</script>``, ``<!--``, quotes, U+2028 / U+2029).
"""

from __future__ import annotations

import json
import shutil

import pytest
from browser_support import Document, colours, png_pixels, screenshot, visit
from hook_support import build_store
from outcomes_support import Session, dp, learn_gradlew, project, stats

HOSTILE = "'<!--x' '</script><script>document.title=\"owned\"</script>' \"q'uo\\\"te\" '\u2028\u2029 é ✓' --flag"
CHARTS = ("chart-timeline", "chart-paths", "chart-rules", "chart-watched")
BACKGROUND = (255, 255, 255)
HELPS = ("--cmd", "grep", "--replace", "rg")


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """A store filled by sessions through the real hooks; returns (env, project directory)."""
    root = tmp_path_factory.mktemp("report")
    if not shutil.which("rg"):
        pytest.skip("grep → rg helps only on a machine with rg")
    env = build_store(root, [HELPS, ("--cmd", "cat", "--replace", "false")])
    if shutil.which("gradle", path=env["PATH"]):
        pytest.skip("this machine has gradle: the call dp answers would not fail")
    repo = project(root)
    assert dp(env, "alias", "--delete", *HELPS).returncode == 0
    before = Session(env, repo, "before")  # grep failed for real before the rule: a path the rule covers now
    assert before.call("grep -rn TODO no-such-dir")[1] == 2
    assert dp(env, "alias", *HELPS).returncode == 0
    learn_gradlew(env, repo)
    session = Session(env, repo, "now")
    assert session.call("grep -rn TODO src")[1] == 0
    assert session.call("cat README.md") == ("false README.md", 1)
    assert session.call("/bin/cat README.md")[1] == 0  # undone
    assert session.call("cat src/main.py")[1] == 1
    assert session.call("gradle -q build")[1] == 127 and "./gradlew -q build" in session.told[-1]
    assert session.call("./gradlew -q build")[1] == 0
    for _ in range(2):
        assert session.call(HOSTILE)[1] == 127
        assert session.call("git comit -m wip")[1] != 0
    return env, repo


def _write(env, repo, *args: str):
    out = repo.parent / "out" / "report.html"
    proc = dp(env, "report", "-o", str(out), *args)
    assert proc.returncode == 0, proc.stderr
    return out


def test_the_page_opens_offline_with_no_console_error_and_every_chart_drawn(store, tmp_path):
    env, repo = store
    page = _write(env, repo)
    seen = visit(page, tmp_path / "profile")
    assert seen.console == [], seen.console  # no message at all: no error, no CSP refusal, nothing logged
    assert seen.page_requests == [], seen.page_requests
    dom = Document(seen.dom)
    assert (dom.body.get("data-state"), dom.body.get("data-errors")) == ("drawn", "0")
    for chart in CHARTS:
        figure = dom.by_id[chart]
        assert figure["data-state"] == "drawn", (chart, figure)
        assert int(figure["data-points"]) > 0 and int(figure["data-painted"]) > 500, (chart, figure)


def test_the_screenshot_is_not_blank_and_shows_the_charts_colours(store, tmp_path):
    env, repo = store
    picture = screenshot(_write(env, repo), tmp_path / "profile", tmp_path / "report.png", size="1100,1500")
    width, height, rows = png_pixels(picture)
    found = colours(rows)
    drawn = width * height - found.get(BACKGROUND, 0)
    assert drawn > width * height // 20, f"only {drawn} of {width * height} pixels differ from the background"
    for name, colour in (("green (succeeded, covered)", (0x2D, 0xA4, 0x4E)), ("red (failed)", (0xCF, 0x22, 0x2E)),
                         ("orange (not covered)", (0xE1, 0x6F, 0x24))):
        assert found.get(colour, 0) > 200, f"no {name} bars in the screenshot"


def test_a_captured_command_cannot_break_out_of_the_page(store, tmp_path):
    env, repo = store
    page = _write(env, repo)
    text = page.read_text(encoding="utf-8")
    assert text.count("</script") == 3 and "<!--" not in text and "\u2028" not in text and "\u2029" not in text
    data = text.split('<script type="application/json" id="dp-data">', 1)[1].split("</script>", 1)[0]
    assert HOSTILE in [path["example"] for path in json.loads(data)["paths"]]  # the same text, read back
    seen = visit(page, tmp_path / "profile")
    dom = Document(seen.dom)
    assert "<title>dp report</title>" in seen.dom  # the command's script never ran (it sets the title)
    assert dom.scripts == 3, "a script element was added"
    assert HOSTILE in dom.cells, "the command is shown as the text it was, whole"
    assert seen.console == []


def test_the_report_counts_what_dp_stats_counts(store):
    env, repo = store
    proc = dp(env, "report", "--json")
    assert proc.returncode == 0, proc.stderr
    data, figures = json.loads(proc.stdout), stats(env, "--since", "30d")
    assert data["rules"] + data["watched"] == sorted(figures["rules"], key=lambda rule: rule["kind"] in
                                                     ("answer", "shadow"))
    assert {key: data["figures"][key] for key in ("rewritten", "answered", "prevented", "answers_followed")} == \
        {key: figures[key] for key in ("rewritten", "answered", "prevented", "answers_followed")}
    hurts = next(rule for rule in data["rules"] if rule["rule"] == "cat → false")
    assert hurts["hurts"] and (hurts["failed"], hurts["undone"]) == (2, 1)
    covered = {path["shape"].split(" ")[0]: path["covered_by"] for path in data["paths"]}
    assert (covered["git"], covered["grep"], covered["gradle"]) == (None, "command grep -> rg", None)
    assert sum(series_total for series_total in (sum(s["counts"]) for s in data["timeline"]["series"])) == \
        data["figures"]["failures"]
    assert sum(data["timeline"]["acted"]) == sum(rule["actions"] for rule in figures["rules"] if rule["kind"] != "shadow")


def test_project_and_agent_narrow_the_report_as_they_narrow_dp_stats(store):
    env, repo = store

    def report(*args: str) -> dict:
        proc = dp(env, "report", "--json", *args)
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)

    here, elsewhere = report("--project", str(repo)), report("--project", str(repo.parent / "elsewhere"))
    assert here["paths"] == report()["paths"] and here["rules"] and here["filters"]["project"] == str(repo)
    assert (elsewhere["paths"], elsewhere["rules"], elsewhere["timeline"]["buckets"]) == ([], [], [])
    gemini = report("--agent", "gemini")
    assert gemini["rules"] == [] and gemini["paths"] == here["paths"]  # failures do not record their agent
    assert gemini["notes"] == ["dp's actions are gemini's only; the desire paths are every agent's "
                               "(a captured failure does not record its agent)."]
    assert report("--since", "2999-01-01")["figures"]["failures"] == 0


def test_the_page_loads_its_charts_from_itself(store):
    """The file names nothing to fetch: no src, no href, a policy that allows nothing from anywhere."""
    env, repo = store
    text = _write(env, repo).read_text(encoding="utf-8")
    head = text.split("<style>", 1)[0]
    assert "default-src 'none'" in head
    for attribute in (" src=", " href=", "@import", "url("):
        assert attribute not in text.split('<script type="application/json"', 1)[0], attribute


@pytest.mark.parametrize("args, message", [
    (("--since", "yesterday"), "dp: error: --since 'yesterday' is not a date or duration"),
    (("--agent", "vim"), "dp: error: --agent 'vim' is not an agent dp serves"),
    (("--team", "--agent", "claude"), "dp: error: --team reports the whole team's paths"),
])
def test_bad_options_are_one_line_errors(store, tmp_path, args, message):
    env, _ = store
    proc = dp(env, "report", "-o", str(tmp_path / "r.html"), *args)
    assert proc.returncode != 0 and proc.stderr.startswith(message) and len(proc.stderr.splitlines()) == 1
    assert not (tmp_path / "r.html").exists()


def test_the_browser_check_sees_errors_and_requests(tmp_path):
    """The harness can fail: a page with a console error, an uncaught error and a fetch is caught."""
    page = tmp_path / "bad.html"
    page.write_text("<!DOCTYPE html><body><script>console.error('boom'); undefinedName();</script>"
                    "<script src='http://cdn.example.test/chart.js'></script></body>")
    seen = visit(page, tmp_path / "profile")
    assert any("boom" in line for line in seen.console) and any("undefinedName" in line for line in seen.console)
    assert "cdn.example.test" in seen.page_requests


def test_a_store_with_nothing_captured_gives_a_page_that_says_so(tmp_path):
    """No store yet: the page still opens cleanly, each chart saying why it is empty."""
    env = build_store(tmp_path, [])
    page = tmp_path / "empty.html"
    proc = dp(env, "report", "-o", str(page))
    assert proc.returncode == 0 and proc.stdout == f"{page}\n", proc.stderr
    seen = visit(page, tmp_path / "profile")
    assert seen.console == [] and seen.page_requests == []
    dom = Document(seen.dom)
    assert dom.body["data-state"] == "drawn" and {dom.by_id[chart]["data-state"] for chart in CHARTS} == {"empty"}
    assert "No failure captured in this period." in seen.dom
