"""`dp pave --agents-md`: the Markdown for every rule kind, --output blocks, --json."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_assertions import assert_one_line_error, into_a_closed_pipe
from hook_support import programs_dir
from task_projects import real_checkout

SCRIPT = "while true; do\n  gt mol status | grep -q signaled && break\n  sleep 5\ndone"

EXPECTED = """\
# Tool Name Corrections

The following tool names are INCORRECT. Use the correct names instead:

- Do NOT call `read_file`. Use `Read` instead.
- Do NOT call `run_shell`. Use `Bash` instead. (there is no run_shell tool)

# Command Corrections

The following commands, flags and values are INCORRECT. Use the corrected form instead:

## grep

- Use `rg` instead of `grep` (rg is faster)

## gt

- Do NOT use `gt await-signal`. It will be expanded to: `while true; do gt mol status | grep -q signaled && break sle…` (poll instead)

## rg

- Flag `--recursive` should be `-r`

## scp

- Flag `-r` should be `-R`
- `user@old:` → `user@new:`
- Pattern `host(\\d+)\\.old` → `host$1.new`

## Edit (param: file_path)

- Pattern `^/tmp/(.*)` → `/scratch/$1` (no /tmp on this box)

## Write (param: file_path)

- `/old/` → `/new/`
"""


EVERY_KIND = [
    ("alias", "--cmd", "scp", "--regex", r"host(\d+)\.old", "host$1.new"),
    ("alias", "run_shell", "Bash", "--message", "there is no run_shell tool"),
    ("alias", "--tool", "Write", "--param", "file_path", "/old/", "/new/"),
    ("alias", "--recipe", "gt await-signal", SCRIPT, "--message", "poll instead"),
    ("alias", "--cmd", "scp", "--flag", "r", "R"),
    ("alias", "--cmd", "rg", "--flag", "--recursive", "-r"),
    (
        "alias",
        "--tool",
        "Edit",
        "--param",
        "file_path",
        "--regex",
        "^/tmp/(.*)",
        "/scratch/$1",
        "-m",
        "no /tmp on this box",
    ),
    ("alias", "--cmd", "grep", "--replace", "rg", "--message", "rg is faster"),
    ("alias", "read_file", "Read"),
    ("alias", "--cmd", "scp", "user@old:", "user@new:"),
]


@pytest.fixture
def dp(dp, tmp_path):
    """``dp`` run in a directory of its own unless a test names one: the checkout the tests run from is a
    project (pyproject.toml's [tool.hatch]) whose paving section would follow the rules."""
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)

    def run(*args, cwd=None, **kwargs):
        return dp(*args, cwd=cwd or work, **kwargs)

    return run


@pytest.fixture
def env(env, tmp_path):
    """The tests' environment with ``gt`` on PATH (a real program under that name): the recipe's program is
    there, so the rule acts and is taught (a rule that cannot act here is not: test_teach_only_what_acts)."""
    directory = programs_dir(tmp_path / "agent-bin", gt="true")
    return {**env, "PATH": f"{directory}{os.pathsep}{env['PATH']}"}


@pytest.fixture(scope="module")
def every_kind_store(tmp_path_factory):
    """One store with every kind of rule, made through `dp alias` once per module."""
    db = tmp_path_factory.mktemp("every-kind") / "dp.db"
    env = {**os.environ, "HOME": str(db.parent), "DP_DB": str(db)}
    for args in EVERY_KIND:
        proc = subprocess.run([str(Path(sys.executable).parent / "dp"), *args], env=env, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
    return db


@pytest.fixture
def every_kind(every_kind_store, db_path):
    db_path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(every_kind_store, db_path)


def test_every_kind_of_rule(dp, every_kind):
    proc = dp("pave", "--agents-md")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == EXPECTED


def test_json_lists_the_rules(dp, every_kind):
    report = json.loads(dp("pave", "--agents-md", "--json").stdout)
    assert report["status"] == "generated" and report["count"] == 10
    assert report["markdown"] == EXPECTED
    lines = [entry["line"] for entry in report["rules"]]
    assert [f"- {line}" for line in lines] == [line for line in EXPECTED.splitlines() if line.startswith("- ")]


def test_empty_store(dp, db_path):
    proc = dp("pave", "--agents-md")
    assert (proc.returncode, proc.stdout) == (0, "")
    assert proc.stderr.strip() == "No aliases configured. Add some with: dp alias <from> <to>"
    report = json.loads(dp("pave", "--agents-md", "--json").stdout)
    assert report == {"status": "no_aliases", "count": 0, "rules": [], "left_out": []}
    assert not db_path.exists()  # printing the rules never creates the store


def test_output_twice_keeps_one_block_and_the_users_text(dp, every_kind, tmp_path):
    agents = tmp_path / "AGENTS.md"
    head, tail = "# Project rules\n\nBe nice.\n\n", "\n\n## Written by hand\nKeep this.\n"
    agents.write_text(f"{head}<!-- dp:begin -->\nstale\n<!-- dp:end -->{tail}")
    first = dp("pave", "--agents-md", "--include-personal", "--output", agents)
    assert first.returncode == 0, first.stderr
    assert first.stdout == f"{agents}: dp's block replaced (10 rules)\n"
    dp("alias", "write_file", "Write")
    second = dp("pave", "--agents-md", "--include-personal", "--output", agents, "--json")
    assert json.loads(second.stdout)["action"] == "replaced"
    text = agents.read_text()
    assert text.startswith(head + "<!-- dp:begin -->\n") and text.endswith("<!-- dp:end -->" + tail)
    assert text.count("<!-- dp:begin -->") == 1 and text.count("# Tool Name Corrections") == 1
    assert "write_file" in text and "stale" not in text


def test_output_creates_or_appends(dp, every_kind, tmp_path):
    new = tmp_path / "docs" / "CLAUDE.md"
    new.parent.mkdir()
    assert json.loads(dp("pave", "--agents-md", "--include-personal", "-o", new, "--json").stdout)["action"] == "created"
    assert new.read_text() == f"<!-- dp:begin -->\n{EXPECTED}<!-- dp:end -->\n"
    existing = tmp_path / "AGENTS.md"
    existing.write_text("# Mine\nno trailing newline")
    assert json.loads(dp("pave", "--agents-md", "--include-personal", "-o", existing, "--json").stdout)["action"] == "appended"
    assert existing.read_text() == f"# Mine\nno trailing newline\n\n<!-- dp:begin -->\n{EXPECTED}<!-- dp:end -->\n"
    rerun = dp("pave", "--agents-md", "--include-personal", "-o", existing)
    assert rerun.stdout == f"{existing}: dp's block already up to date (10 rules)\n"


def test_output_through_a_symlink_keeps_the_link(dp, every_kind, tmp_path):
    target = tmp_path / "AGENTS.md"
    target.write_text("# Agents\n")
    link = tmp_path / "CLAUDE.md"
    link.symlink_to(target)
    dp("pave", "--agents-md", "--include-personal", "-o", link)
    assert link.is_symlink() and "# Tool Name Corrections" in target.read_text()


def test_stray_markers_are_an_error_that_changes_nothing(dp, every_kind, tmp_path):
    agents = tmp_path / "AGENTS.md"
    agents.write_text("<!-- dp:begin -->\nhalf a block\n")
    assert_one_line_error(dp("pave", "--agents-md", "--include-personal", "-o", agents), "markers")
    assert agents.read_text() == "<!-- dp:begin -->\nhalf a block\n"


def test_tasks_section_follows_the_rules(dp, every_kind, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "Makefile").write_text("test:\n\techo testing\n")
    proc = dp("pave", "--agents-md", "--tasks", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(EXPECTED + "\n# Project Tasks\n")
    assert "`make test`" in proc.stdout


def test_tasks_without_rules_still_prints_the_tasks(dp, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "Makefile").write_text("build:\n\techo building\n")
    proc = dp("pave", "--agents-md", "--tasks", cwd=project)
    assert proc.returncode == 0 and proc.stdout.startswith("# Project Tasks\n")
    assert "No aliases configured" in proc.stderr


def test_empty_store_leaves_the_output_file_alone(dp, tmp_path):
    agents = tmp_path / "AGENTS.md"
    proc = dp("pave", "--agents-md", "--include-personal", "-o", agents)
    assert proc.returncode == 0 and not agents.exists()
    agents.write_text("# Mine\n")
    assert dp("pave", "--agents-md", "--include-personal", "-o", agents).returncode == 0
    assert agents.read_text() == "# Mine\n"


def test_deleting_the_last_rule_empties_the_block_it_wrote(dp, tmp_path):
    agents = tmp_path / "AGENTS.md"
    agents.write_text("# Mine\n")
    dp("alias", "read_file", "Read")
    dp("pave", "--agents-md", "--include-personal", "-o", agents)
    assert "read_file" in agents.read_text()
    dp("alias", "--delete", "read_file")
    proc = dp("pave", "--agents-md", "--include-personal", "-o", agents, "--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert (report["status"], report["action"]) == ("no_aliases", "replaced")
    assert agents.read_text() == "# Mine\n\n<!-- dp:begin -->\n<!-- dp:end -->\n"


@pytest.mark.parametrize(
    "args, fragment",
    [
        (("pave", "--agents-md", "--hook"), "choose one of"),
        (("pave", "--agents-md", "--scope", "project"), "--scope"),
        (("pave", "--tasks"), "choose one of"),
    ],
)
def test_option_mistakes(dp, args, fragment):
    assert_one_line_error(dp(*args), fragment)


def test_a_closed_pipe_is_not_a_traceback(every_kind, env):
    # No reader exists at any moment (see into_a_closed_pipe): dp ends quietly, as click does.
    proc = into_a_closed_pipe([Path(sys.executable).parent / "dp", "pave", "--agents-md", "--json"], env)
    assert (proc.returncode, proc.stderr) == (1, ""), proc.stderr


def test_claude_md_gets_an_agents_md_import_line_once(dp, tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    (project / "CLAUDE.md").write_bytes(b"# Team notes\r\nBe kind.")
    dp("alias", "read_file", "Read")
    written = dp("pave", "--agents-md", "--include-personal", "--output", "AGENTS.md", cwd=project)
    assert "Claude Code reads CLAUDE.md: add an @AGENTS.md import line with `dp pave --claude-md`" in written.stderr
    proc = dp("pave", "--claude-md", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("CLAUDE.md: added the @AGENTS.md import line")
    assert (project / "CLAUDE.md").read_bytes() == b"# Team notes\r\nBe kind.\r\n\r\n@AGENTS.md\r\n"
    again = dp("pave", "--claude-md", "--json", cwd=project)
    assert '"action": "present"' in again.stdout
    assert "Claude Code reads CLAUDE.md" not in dp("pave", "--agents-md", "--include-personal", "--output", "AGENTS.md", cwd=project).stderr


def test_claude_md_is_created_when_missing(dp, tmp_path):
    proc = dp("pave", "--claude-md", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "CLAUDE.md").read_text() == "@AGENTS.md\n"


def test_a_project_rule_respelled_for_an_agent_keeps_its_origin(dp, env, tmp_path):
    """Copilot CLI calls Read `view` and its file_path `path`: the trusted project file's rule, respelled so,
    still names the file and line it comes from (issue 53, finding 3: it came back as the user's, line 0)."""
    repo = real_checkout(tmp_path / "repo")
    (repo / ".dp").mkdir()
    (repo / ".dp" / "rules.toml").write_text(
        '# The team\'s rules.\n\n[[aliases]]\nfrom = "^/etc/"\nto = "/srv/etc/"\ntool = "Read"\n'
        'param = "file_path"\nmatch_kind = "regex"\nmessage = "Configuration lives in /srv/etc"\n')
    git = {**env, "GIT_AUTHOR_NAME": "Ann", "GIT_AUTHOR_EMAIL": "ann@example.com", "GIT_COMMITTER_NAME": "Ann",
           "GIT_COMMITTER_EMAIL": "ann@example.com", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    for argv in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "Team rules"]):
        subprocess.run(["git", *argv], cwd=repo, env=git, check=True, capture_output=True)
    assert dp("trust", cwd=repo).returncode == 0

    report = json.loads(dp("pave", "--agents-md", "--agent", "copilot", "--json", cwd=repo / "src").stdout)
    [entry] = report["rules"]
    assert (entry["tool"], entry["from_name"]) == ("view", "^/etc/")
    assert (entry["source"], entry["source_line"]) == ("project", 3)
    plain = json.loads(dp("pave", "--agents-md", "--json", cwd=repo / "src").stdout)
    assert [(rule["tool"], rule["source"], rule["source_line"]) for rule in plain["rules"]] == [
        ("Read", "project", 3)]
