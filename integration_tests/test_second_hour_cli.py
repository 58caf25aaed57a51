"""Issue 38 through the CLI: what a person meets in dp's second hour (the CLI's part).

Each test runs the installed ``dp`` as a subprocess on a project that looks like a real one.
"""

from __future__ import annotations

import importlib.metadata
import json
import re
from pathlib import Path

import pytest
from cli_assertions import assert_one_line_error
from task_projects import calls, install_fake, make_repo, path_with

from dp import DISTRIBUTION, UNINSTALL_HINT


def test_uninstall_help_names_the_distribution_that_is_dp(dp):
    """`dp` on PyPI is another package: the help says how to remove desire-paths, the name pip knows."""
    proc = dp("uninstall", "--help")
    assert proc.returncode == 0, proc.stderr
    text = " ".join(proc.stdout.split())
    assert f"pip uninstall {DISTRIBUTION}" in text
    assert "uninstall dp" not in text
    assert UNINSTALL_HINT in text
    installed = importlib.metadata.distribution(DISTRIBUTION)  # the package this environment installed dp as
    assert "dp" in {entry.name for entry in installed.entry_points if entry.group == "console_scripts"}


# --- 4: -C DIR means "as if started in DIR", like git -C and make -C --------------------------------

def _npm_project(root: Path, bin_dir: Path) -> Path:
    make_repo(root)
    (root / "node_modules" / ".bin").mkdir(parents=True)
    (root / "package.json").write_text(json.dumps({"name": "web", "scripts": {"dev": "vite", "build": "tsc"}}))
    (root / "package-lock.json").write_text("{}")
    install_fake(bin_dir, "npm")
    return root


def test_cwd_names_another_project_from_inside_a_project(dp, tmp_path):
    """`cd proj && dp tasks -C /tmp/npmproj` lists npmproj's tasks, as it does when started there."""
    here = make_repo(tmp_path / "proj")
    (here / "Makefile").write_text("all:\n\t@true\n")
    other = _npm_project(tmp_path / "npm proj", tmp_path / "bin")
    started_there = dp("tasks", "--json", cwd=other)
    for args in (["tasks", "-C", other, "--json"], ["-C", other, "tasks", "--json"], ["tasks", "--cwd", "../npm proj", "--json"]):
        proc = dp(*args, cwd=here)
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout) == json.loads(started_there.stdout)
        assert json.loads(proc.stdout)["available_tasks"] == {"npm": ["build", "dev"]}


def test_dp_run_with_cwd_runs_the_task_where_dp_would_have_started(dp, tmp_path):
    here = make_repo(tmp_path / "proj")
    (here / "Makefile").write_text("all:\n\t@true\n")
    other = _npm_project(tmp_path / "web", tmp_path / "bin")
    proc = dp("run", "-C", other, "dev", cwd=here, extra_env={"PATH": path_with(tmp_path / "bin")})
    assert proc.returncode == 0, proc.stderr
    assert [(call["argv"], call["cwd"]) for call in calls(tmp_path / "bin")] == [(["npm", "run", "dev"], str(other))]


def test_relative_paths_on_the_command_line_are_read_from_dir(dp, tmp_path):
    """As with git -C: `dp recipe run recipes/hello.yaml -C proj` is proj/recipes/hello.yaml."""
    project = make_repo(tmp_path / "proj")
    (project / "recipes").mkdir()
    (project / "recipes" / "hello.yaml").write_text("name: hello\nsteps:\n  - id: a\n    command: pwd\n")
    proc = dp("recipe", "run", "recipes/hello.yaml", "-C", "proj", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["steps"][0]["output"].strip() == str(project)


@pytest.mark.parametrize("command", ["tasks", "run dev", "doctor", "aliases", "recipe list", "desires", "make --list",
                                     "paving", "trust --show", "uninstall --dry-run"])
def test_a_missing_cwd_is_not_a_directory_everywhere(dp, tmp_path, command):
    proc = dp(*command.split(), "-C", tmp_path / "nonexistent", cwd=tmp_path)
    assert_one_line_error(proc, f"--cwd {tmp_path / 'nonexistent'}: not a directory")
    assert proc.returncode == 2


# --- 6: the shared options are accepted by every command, before or after its name ------------------

SHARED = ("--db", "--cwd", "-C", "--json", "--quiet", "-q")


def _commands(dp) -> list[str]:
    """Every command and subcommand `dp --help` lists (pave-check, the hook itself, takes the hook's options)."""
    found = []
    for line in dp("--help").stdout.split("Commands:")[1].splitlines():
        match = re.match(r" {2,}([a-z][a-z-]*)  ", line)
        if match:
            found.append(match.group(1))
    assert {"init", "run", "tasks", "desires", "recipe", "aliases"} <= set(found), found
    listed = []
    for name in found:
        page = dp(name, "--help").stdout
        if "Commands:" in page:
            listed += [f"{name} {match.group(1)}" for line in page.split("Commands:")[1].splitlines()
                       if (match := re.match(r" {2}([a-z][a-z-]*)(?: {2,}|$)", line))]
        else:
            listed.append(name)
    return [name for name in listed if name != "pave-check"]


def test_every_command_takes_every_shared_option(dp):
    missing = {}
    for command in _commands(dp):
        page = dp(*command.split(), "--help").stdout
        lacking = [option for option in SHARED if not re.search(rf"(^|[\s,]){re.escape(option)}[\s,]", page)]
        if lacking:
            missing[command] = lacking
    assert missing == {}


@pytest.mark.parametrize("where", ["before", "after"])
def test_init_quiet_before_or_after_prints_nothing_but_works(dp, tmp_path, home, where):
    args = ["-q", "init", "--no-capture"] if where == "before" else ["init", "--no-capture", "-q"]
    proc = dp(*args, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""
    assert "pave-check" in (home / ".claude" / "settings.json").read_text()
    assert all(line.startswith("dp: warning: ") for line in proc.stderr.splitlines()), proc.stderr


# --- 7: dp run's argument is the task; a task a person starts has no default time limit -------------

def test_dp_run_without_a_task_names_the_task(dp, tmp_path):
    project = _npm_project(tmp_path / "web", tmp_path / "bin")
    proc = dp("run", cwd=project)
    assert_one_line_error(proc, "Missing argument 'TASK'")
    usage = dp("run", "--help", cwd=project).stdout.splitlines()[0]
    assert usage == "Usage: dp run [OPTIONS] TASK [ARGS]"


@pytest.mark.parametrize("command", ["run dev", "script dev", "make serve"])
def test_a_task_a_person_starts_has_no_time_limit_unless_asked(dp, tmp_path, command):
    project = _npm_project(tmp_path / "web", tmp_path / "bin")
    (project / "Makefile").write_text("serve:\n\t@echo serving\n")
    env = {"PATH": path_with(tmp_path / "bin")}
    planned = json.loads(dp(*command.split(), "--dry-run", "--json", cwd=project, extra_env=env).stdout)
    assert planned["timeout"] is None
    ran = dp(*command.split(), "--json", cwd=project, extra_env=env)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["timeout"] is None
    bounded = json.loads(dp(*command.split(), "--timeout", "900", "--json", cwd=project, extra_env=env).stdout)
    assert bounded["timeout"] == 900
    assert "default: no limit" in " ".join(dp(*command.split()[:1], "--help").stdout.split())


# --- 3: every destructive command asks on a terminal or takes --yes, the same way ------------------

def _capture_two(env) -> None:
    from capture_support import failure, run_capture

    for number in range(2):
        payload = failure("python x.py", "Exit code 127\npython: command not found", session=f"s{number}",
                          tool_use_id=f"toolu_{number}")
        assert run_capture(payload, env=env).returncode == 0


def _on_a_terminal(command: list, env: dict, answer: str, cwd) -> tuple[int, str]:
    """Run COMMAND with a real terminal as stdin/stdout/stderr, answer its prompt, and read everything it wrote."""
    import os
    import pty
    import subprocess

    leader, follower = pty.openpty()
    proc = subprocess.Popen([str(word) for word in command], stdin=follower, stdout=follower, stderr=follower,
                            env=env, cwd=cwd, close_fds=True)
    os.close(follower)
    os.write(leader, answer.encode())
    output = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # EIO: the terminal's other end closed with the process
            break
        if not chunk:
            break
        output += chunk
    os.close(leader)
    return proc.wait(timeout=60), output.decode(errors="replace").replace("\r\n", "\n")


@pytest.mark.parametrize("command", [["desires", "--purge"], ["uninstall", "--purge"]])
def test_without_a_terminal_and_without_yes_nothing_is_deleted(dp, env, db_path, tmp_path, command):
    _capture_two(env)
    proc = dp(*command, cwd=tmp_path)
    assert_one_line_error(proc, f"dp {command[0]} --purge deletes ")
    assert "add --yes to delete without asking (nothing was deleted)" in proc.stderr
    assert len(json.loads(dp("desires", "--json").stdout)) == 2


@pytest.mark.parametrize("command", [["desires", "--purge"], ["uninstall", "--purge"]])
def test_declining_on_a_terminal_is_calm_and_deletes_nothing(dp, env, db_path, tmp_path, command):
    from conftest import DP_BIN

    _capture_two(env)
    status, output = _on_a_terminal([DP_BIN, *command], env, "n\n", tmp_path)
    assert "Delete " in output and "[y/N]" in output
    assert "dp: nothing deleted" in output and "error" not in output
    assert status == 1
    assert len(json.loads(dp("desires", "--json").stdout)) == 2


def test_agreeing_on_a_terminal_deletes(dp, env, db_path, tmp_path):
    from conftest import DP_BIN

    _capture_two(env)
    status, output = _on_a_terminal([DP_BIN, "desires", "--purge"], env, "y\n", tmp_path)
    assert status == 0, output
    assert f"Delete 2 captured events in {db_path}?" in output and "Deleted 2 captured events." in output
    assert json.loads(dp("desires", "--json").stdout) == []


def test_desires_purge_dry_run_counts_and_deletes_nothing(dp, env, tmp_path):
    _capture_two(env)
    proc = dp("desires", "--purge", "--dry-run", cwd=tmp_path)
    assert (proc.returncode, proc.stdout) == (0, "Would delete 2 captured events.\n")
    report = json.loads(dp("desires", "--purge", "--dry-run", "--json").stdout)
    assert report == {"deleted": 0, "before": None, "dry_run": True, "would_delete": 2}
    assert len(json.loads(dp("desires", "--json").stdout)) == 2


# --- 2: dp uninstall takes its part out of a file git tracks and leaves the file --------------------

def _git(repo: Path, *args: str) -> str:
    import subprocess

    proc = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, timeout=60,
                          env={"GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@x", "GIT_COMMITTER_NAME": "a",
                               "GIT_COMMITTER_EMAIL": "a@x", "PATH": "/usr/bin:/bin", "HOME": str(repo)})
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_uninstall_never_deletes_a_committed_file_dp_created(dp, tmp_path, home):
    repo = tmp_path / "team app"
    repo.mkdir()
    _git(repo, "init", "-q")
    (repo / "src").mkdir()
    (repo / "src" / "main.py").write_text("print('hi')\n")
    (repo / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00binary")
    assert dp("alias", "read_file", "Read", cwd=repo).returncode == 0
    for args in (["pave", "--agents-md", "--include-personal", "--output", "AGENTS.md"], ["pave", "--agents-md", "--include-personal", "--output", "CLAUDE.md"],
                 ["pave", "--hook", "--scope", "project"]):
        proc = dp(*args, cwd=repo)
        assert proc.returncode == 0, proc.stderr
    shared = [repo / "AGENTS.md", repo / "CLAUDE.md", repo / ".claude" / "settings.json"]
    assert all(path.exists() for path in shared)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "the team's agent files")
    proc = dp("uninstall", cwd=repo)
    assert proc.returncode == 0, proc.stderr
    assert "deleted" not in proc.stdout
    assert proc.stdout.count("git tracks the file, so it stays") == 3, proc.stdout
    for path in shared:
        assert path.exists(), path
        assert "dp:begin" not in path.read_text() and "pave-check" not in path.read_text()
    assert _git(repo, "ls-files", "--deleted") == ""
    untracked = repo / "NOTES.md"  # a file dp created that nobody committed still goes, as before
    assert dp("pave", "--agents-md", "--include-personal", "--output", "NOTES.md", cwd=repo).returncode == 0
    proc = dp("uninstall", cwd=repo)
    assert "the file was dp's own and is deleted" in proc.stdout and not untracked.exists()


# --- 10: errors name the file and the fix; a typo gets "did you mean"; an unmet check is not ok -------

def test_a_missing_recipe_file_is_named_as_typed(dp, tmp_path):
    project = make_repo(tmp_path / "proj")
    (project / "recipes").mkdir()
    (project / "recipes" / "build.yaml").write_text("name: build\nsteps:\n  - id: a\n    command: echo hi\n")
    proc = dp("recipe", "run", "nosuch.yaml", cwd=project)
    assert_one_line_error(proc, f"recipe 'nosuch.yaml' not found: no file {project / 'nosuch.yaml'}, and no nosuch.yaml in")
    assert ".yaml.yaml" not in proc.stderr and "dp recipe list" in proc.stderr
    assert dp("recipe", "run", "build.yaml", "--json", cwd=project).returncode == 0  # the name with its suffix still finds it


@pytest.mark.parametrize("name, text, where", [
    ("broken.toml", '[meta]\nexported_by = "alice"\n\n[[aliases]]\nfrom = "read_file\n', "at line 5"),
    ("team.json", '{"meta": {},\n "aliases": [\n', "invalid JSON at line 3"),
])
def test_a_broken_collection_names_its_file_line_and_fix(dp, tmp_path, name, text, where):
    path = tmp_path / name
    path.write_text(text)
    proc = dp("aliases", "import", path)
    assert_one_line_error(proc, f"dp: error: {path}: ")
    assert where in proc.stderr and "correct it there" in proc.stderr and "dp aliases export" in proc.stderr


@pytest.mark.parametrize("args, meant", [
    (["init", "--agent", "claud"], "claude"),
    (["init", "--scope", "projct"], "project"),
    (["pave", "--hook", "--mode", "advse"], "advise"),
    (["pave", "--hook", "--permission", "aks"], "ask"),
    (["aliases", "--kind", "comand"], "command"),
    (["pave", "--hook", "--agent", "gemini", "--scope", "usr"], "user"),
])
def test_every_enumerated_choice_says_did_you_mean(dp, tmp_path, home, args, meant):
    before = _files(home)
    proc = dp(*args, cwd=tmp_path)
    assert_one_line_error(proc, f"(did you mean '{meant}'?)")
    assert _files(home) == before  # nothing was installed


def test_doctor_never_says_ok_beside_a_fix(dp, tmp_path):
    assert dp("init", "--no-capture", "-q", cwd=tmp_path).returncode == 0
    checks = json.loads(dp("doctor", "--json", cwd=tmp_path).stdout)["checks"]
    capture = [check for check in checks if check["check"] == "capture"]
    assert [(check["status"], check["message"]) for check in capture] == [
        ("warning", "capture hooks not installed (failed calls are not recorded)")]
    assert [check for check in checks if check["status"] == "ok" and check["fix"]] == []
    text = dp("doctor", cwd=tmp_path).stdout
    assert not any(line.startswith("ok") and "not installed" in line for line in text.splitlines())


def test_help_lists_commands_by_what_a_person_does(dp):
    page = dp("--help").stdout.split("Commands:", 1)[1]
    sections, current = {}, None
    for line in page.splitlines():
        heading = re.fullmatch(r"  ([A-Z][a-z ]+):", line)
        if heading:
            current = sections.setdefault(heading.group(1), [])
        elif re.match(r" {4}[a-z]", line):
            current.append(line.split()[0])
    assert list(sections) == ["Set up", "Rules", "Capture", "Outcomes", "Project", "Recipes", "Agents"]
    assert sections["Set up"][0] == "init" and "pave-check" in sections["Agents"]
    assert sections["Rules"][:2] == ["alias", "aliases"] and "paving" in sections["Project"]
    listed = [name for names in sections.values() for name in names]
    assert len(listed) == len(set(listed)) >= 21


# --- 3 (continued): --dry-run where a command changes a person's rules or switches ------------------

def _files(root: Path) -> dict:
    return {path: path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


def test_alias_dry_run_says_what_would_change_and_changes_nothing(dp, tmp_path, db_path, home):
    repo = make_repo(tmp_path / "repo")
    (repo / ".dp").mkdir()
    (repo / ".dp" / "rules.toml").write_text('[[aliases]]\nfrom = "read_file"\nto = "Read"\n\n'
                                             '[[aliases]]\nfrom = "write_file"\nto = "Write"\n')
    assert dp("alias", "--cmd", "grep", "--replace", "rg", cwd=repo).returncode == 0
    before = {**_files(repo), **_files(db_path.parent)}
    cases = [
        (["--cmd", "grep", "--replace", "rg"], "Rule would be unchanged: command grep -> rg (dry run; nothing was changed)"),
        (["--cmd", "grep", "--replace", "ag"], "Rule would be updated: command grep -> ag (dry run; nothing was changed)"),
        (["--cmd", "find", "--replace", "fd"], "Rule would be set: command find -> fd (dry run; nothing was changed)"),
        (["--delete", "--cmd", "grep", "--replace", "rg"], "Rule would be deleted: command grep (dry run; nothing was changed)"),
        (["--project", "--cmd", "ls", "--replace", "eza"],
         f"Rule would be set in {repo / '.dp' / 'rules.toml'}: command ls -> eza (dry run; nothing was changed)"),
        (["--project", "--delete", "read_file"],
         f"Alias would be deleted from {repo / '.dp' / 'rules.toml'}: read_file (dry run; nothing was changed)"),
    ]
    for args, line in cases:
        proc = dp("alias", *args, "--dry-run", cwd=repo)
        assert (proc.returncode, proc.stdout.strip()) == (0, line), proc.stderr
    missing = dp("alias", "--delete", "--cmd", "zz", "--replace", "x", "--dry-run", cwd=repo)
    assert_one_line_error(missing, "not found: no rule command zz")
    assert json.loads(dp("alias", "--cmd", "find", "--replace", "fd", "--dry-run", "--json", cwd=repo).stdout)["dry_run"]
    assert {**_files(repo), **_files(db_path.parent)} == before


def test_paving_switch_dry_run_changes_nothing(dp, tmp_path, db_path):
    repo = make_repo(tmp_path / "repo")
    proc = dp("paving", "off", "--project", "--dry-run", cwd=repo)
    assert proc.stdout.strip() == f"Project paving would be off for {repo} (dry run; nothing was changed)."
    assert "Project paving: on" in dp("paving", cwd=repo).stdout


def test_trust_dry_run_is_its_show(dp, tmp_path, db_path):
    repo = make_repo(tmp_path / "repo")
    (repo / ".dp").mkdir()
    (repo / ".dp" / "rules.toml").write_text('[[aliases]]\nfrom = "read_file"\nto = "Read"\n')
    shown = dp("trust", "--show", cwd=repo)
    dry = dp("trust", "--dry-run", cwd=repo)
    assert (dry.returncode, dry.stdout) == (0, shown.stdout) and "read_file" in dry.stdout
    assert json.loads(dp("aliases", "--json", cwd=repo).stdout) == []  # nothing was trusted: the rule does not act
    assert dp("trust", cwd=repo).returncode == 0
    assert [rule["from_name"] for rule in json.loads(dp("aliases", "--json", cwd=repo).stdout)] == ["read_file"]
