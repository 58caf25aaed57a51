"""The README's and the docs site's shell examples, run: every ```console block, in order, each chapter in its own HOME.

The pages are README.md and every ``docs/**/*.md`` (the MkDocs site): each page is read the same
way and starts a chapter of its own, so a page never depends on what another page did.

Each ``$ command`` runs with bash (stdout and stderr together, as a terminal
shows them) and what it prints must be the lines the README shows under it,
after the volatile parts are normalised (times, durations, commit hashes, the
temporary HOME shown as /tmp/alice, dp's install directory shown as
/tmp/venv/bin, the host name, backup file names, the latency of one hook call,
and the warning about where dp is installed, see INSTALL_WARNING).
A README line ``…`` as the last line shows only the start of the output.

A page is read as chapters: blocks run in page order and share HOME, the
store and the files they make, as a reader following along would; a ``fresh``
marker starts a new chapter in a new empty HOME. Chapters are independent
tests (pytest-xdist runs them side by side).

Markers, an HTML comment on the line before the block's fence (invisible on
GitHub); several may precede a block:

* ``<!-- doctest: skip REASON -->`` — the block cannot run in a test; the reason says why;
* ``<!-- doctest: fresh WHY -->`` — from this block on, a new empty HOME (a new machine);
* ``<!-- doctest: cwd DIR -->`` — the block runs in DIR (``~/…`` is under HOME; created if
  missing) instead of ``~/project``, a directory with an empty ``.git``;
* ``<!-- doctest: any-order WHY -->`` — the block's lines are compared in any order (steps that
  run at the same time);
* ``<!-- doctest: setup COMMAND -->`` — run COMMAND first, in the block's directory (e.g.
  create a file the example reads). ``$README_FILES`` is ``integration_tests/data/readme``
  (the example projects), ``$README_REPO`` the checkout, ``$README_CLAUDE`` the pinned real ``claude`` (installed on demand).

Every command also sees ``~/bin`` first on PATH (where a user keeps their own tools),
a fixed git identity and commit dates, and npm without its update notice.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]
FILES = Path(__file__).resolve().parent / "data" / "readme"
MARKER = re.compile(r"^<!-- doctest: (skip|setup|cwd|fresh|any-order) (.*) -->$")
# Where dp is installed decides one warning, and only that one is taken out: dp init and
# dp pave --hook rightly warn that a hook program inside a repository's own virtual environment
# (this checkout's .venv) or in a temporary directory (the virtualenv of a CI job, tox or
# test_distribution.py) may not last. The pages show dp installed for good, as a user's tool;
# the warning is removed only when it names the pave-check under test (/tmp/venv/bin once
# normalised) and gives one of those two reasons, so any other warning still has to be shown.
INSTALL_WARNING = (r"/tmp/venv/bin/pave-check (?:is inside the repository \S+ \(its own virtual environment\)"
                   r"|is in a temporary directory): the hook breaks when")
VOLATILE = [
    (re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?(Z|\+00:00)?"), "<TIME>"),
    (re.compile(r"\d{8}T\d{6}\.\d+Z"), "<STAMP>"),
    (re.compile(r"took \d+ ms"), "took <N> ms"),
    (re.compile(r"\(\d+\.\d+s\)"), "(<T>s)"),
    (re.compile(r"\b\d+\.\d+s\b"), "<T>s"),
    (re.compile(r"after \d+\.\d+ s"), "after <T> s"),
    (re.compile(r'"duration_ms": \d+'), '"duration_ms": <N>'),
    (re.compile(r'^source = ".*"$', re.M), 'source = "<HOST>"'),
    (re.compile(r"/tmp/alice/\.dp/backups/\S+?(?=\"|$| )", re.M), "<BACKUP>"),
    (re.compile(rf"^ *warning: {INSTALL_WARNING}.*\n?", re.M), ""),
    (re.compile(rf',\n *"warning": "{INSTALL_WARNING}[^"]*"'), ""),
]
# One call of the hook is timed by dp doctor: a loaded test machine warns where a quiet one
# does not, so a latency warning is read as the OK line the README shows.
SLOW_HOOK = re.compile(r"^warn   latency     (one call of .* took <N> ms) \(every tool call pays this\)\n +fix: .*$",
                       re.M)
DOCTOR_SUMMARY = re.compile(r"^(\d+) ok, (\d+) warning\(s\), (\d+) error\(s\)$", re.M)
GIT = {"GIT_AUTHOR_NAME": "Alice", "GIT_AUTHOR_EMAIL": "alice@example.com", "GIT_COMMITTER_NAME": "Alice",
       "GIT_COMMITTER_EMAIL": "alice@example.com", "GIT_AUTHOR_DATE": "2026-11-24T09:00:00Z",
       "GIT_COMMITTER_DATE": "2026-11-24T09:00:00Z"}


def blocks(text: str, page: str = "README.md") -> list[dict]:
    """Every console block: its page, line number, markers, and (command, expected lines) pairs."""
    lines = text.splitlines()
    found, markers = [], []
    index = 0
    while index < len(lines):
        line = lines[index].strip()
        marker = MARKER.match(line)
        if marker:
            markers.append(marker.groups())
        elif line == "```console":
            end = next(i for i in range(index + 1, len(lines)) if lines[i].strip() == "```")
            body = [body_line[len(lines[index]) - len(lines[index].lstrip()):] for body_line in lines[index + 1:end]]
            found.append({"page": page, "line": index + 1, "markers": markers, "steps": _steps(body)})
            markers, index = [], end
        elif line:
            markers = []
        index += 1
    return found


def chapters(text: str, page: str = "README.md") -> list[list[dict]]:
    """The blocks, cut before every ``fresh`` marker: each list runs in a HOME of its own."""
    result: list[list[dict]] = [[]]
    for block in blocks(text, page):
        if any(kind == "fresh" for kind, _ in block["markers"]) and result[-1]:
            result.append([])
        result[-1].append(block)
    return [chapter for chapter in result if chapter]


def _page_name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def all_blocks() -> list[dict]:
    """The console blocks of every page, README.md first."""
    return [block for path in PAGES for block in blocks(path.read_text(encoding="utf-8"), _page_name(path))]


def all_chapters() -> list[list[dict]]:
    """The chapters of every page: a page always starts a new one."""
    return [chapter for path in PAGES for chapter in chapters(path.read_text(encoding="utf-8"), _page_name(path))]


def _steps(body: list[str]) -> list[tuple[str, list[str]]]:
    """(command, output lines) of each ``$`` line; a line ending in ``\\`` continues the command."""
    steps: list[tuple[str, list[str]]] = []
    continued = False
    for line in body:
        if continued:
            steps[-1] = (f"{steps[-1][0]}\n{line}", [])
        elif line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps:
            steps[-1][1].append(line)
        continued = bool(steps) and not steps[-1][1] and line.endswith("\\")
    return steps


def normalise(text: str, home: Path, bin_dir: Path) -> str:
    dp_bin = home.parent / "dp-bin"
    text = text.replace(str(bin_dir), "/tmp/venv/bin").replace(str(dp_bin), "/tmp/venv/bin").replace(str(home), "/tmp/alice")
    for pattern, replacement in VOLATILE:
        text = pattern.sub(replacement, text)
    text = _quiet_machine_latency(text)
    return "\n".join(line.rstrip() for line in text.splitlines())


def _quiet_machine_latency(text: str) -> str:
    if not SLOW_HOOK.search(text):
        return text
    text = SLOW_HOOK.sub(lambda match: f"ok     latency     {match.group(1)}", text)
    return DOCTOR_SUMMARY.sub(
        lambda m: f"{int(m.group(1)) + 1} ok, {int(m.group(2)) - 1} warning(s), {m.group(3)} error(s)", text)


def _dp_commands(into: Path, bin_dir: Path) -> Path:
    """A directory holding only dp's own commands, as the README's install puts them on PATH: the test
    environment's other programs (its python, pip, ruff, mypy …) are no tools of the person the docs
    show, and a docs example that finds ``ruff`` missing must find it missing here too."""
    into.mkdir(exist_ok=True)
    for name in ("dp", "pave-check", "dp-capture"):
        (into / name).symlink_to(bin_dir / name)
    return into


def _environment(home: Path, bin_dir: Path) -> dict:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DP_", "CLAUDE", "GIT_", "XDG_"))}
    env.update({"HOME": str(home), "PATH": f"{home / 'bin'}:{bin_dir}:{env.get('PATH', '')}", "NO_COLOR": "1",
                "COLUMNS": "200", "XDG_CACHE_HOME": str(home / ".cache"), "README_FILES": str(FILES), "README_REPO": str(README.parent),
                "NPM_CONFIG_UPDATE_NOTIFIER": "false", "NPM_CONFIG_FUND": "false", **GIT})
    return env


def _claude() -> str:
    from real_client.claude_install import claude_code, installed_or_skip

    return str(installed_or_skip(claude_code(), "README CHAPTER (it runs the real Claude Code)"))


def _directory(markers: list[tuple[str, str]], home: Path) -> Path:
    where = [value.strip() for kind, value in markers if kind == "cwd"]
    path = home / "project" if not where else home / where[-1].removeprefix("~").lstrip("/")
    path.mkdir(parents=True, exist_ok=True)
    return path


def run_chapter(chapter: list[dict], home: Path, warm_cache: Path) -> list[str]:
    """Run every block of one chapter in HOME; the differences from what the README shows.

    dp's bashlex table cache is copied in first, as the machine would have it after its first
    hook call: building it in the hook's first call can outlast the hook's time budget on a
    loaded test machine, and dp then rightly leaves the command alone.
    """
    (home / "project" / ".git").mkdir(parents=True)
    (home / "bin").mkdir()
    if warm_cache.is_dir():
        shutil.copytree(warm_cache, home / ".cache" / "dp")
    bin_dir = Path(sys.executable).parent
    env = _environment(home, _dp_commands(home.parent / "dp-bin", bin_dir))
    failures = []
    for block in chapter:
        if any(kind == "skip" for kind, _ in block["markers"]):
            continue
        cwd = _directory(block["markers"], home)
        _set_up(block, cwd, env)
        for command, expected in block["steps"]:
            # The README shows HOME as /tmp/alice, in commands too (a payload's "cwd").
            proc, cwd = _run_in_shell(command.replace("/tmp/alice", str(home)), cwd, env)
            shown = normalise("\n".join(expected), home, bin_dir)
            printed = normalise(proc.stdout, home, bin_dir)
            if expected and expected[-1].strip() == "…":  # the README shows only the start
                shown = "\n".join(shown.splitlines()[:-1])
                printed = "\n".join(printed.splitlines()[: len(shown.splitlines())])
            if any(kind == "any-order" for kind, _ in block["markers"]):
                shown, printed = ("\n".join(sorted(text.splitlines())) for text in (shown, printed))
            if printed != shown:
                failures.append(f"{block['page']}:{block['line']}: $ {command}\n--- the page shows:\n{shown}\n"
                                f"--- dp printed:\n{printed}\n")
    return failures


def _set_up(block: dict, cwd: Path, env: dict) -> None:
    for kind, command in block["markers"]:
        if kind != "setup":
            continue
        if "README_CLAUDE" in command:
            env["README_CLAUDE"] = _claude()
        setup = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
        assert setup.returncode == 0, f"{block['page']}:{block['line']}: setup {command!r} failed:\n{setup.stderr}"


def _run_in_shell(command: str, cwd: Path, env: dict) -> tuple[subprocess.CompletedProcess, Path]:
    """Run one ``$`` line; a ``cd`` in it carries over to the block's next line, as in a terminal."""
    where = Path(env["HOME"]).parent / "doctest-cwd"
    script = f'{command}\n__status=$?; pwd > {shlex.quote(str(where))}; exit $__status'
    proc = subprocess.run(["bash", "-c", script], cwd=cwd, env=env, timeout=300,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        return proc, Path(where.read_text().strip())
    except OSError:
        return proc, cwd
    finally:
        where.unlink(missing_ok=True)


CHAPTERS = all_chapters()


def test_every_block_is_run_or_says_why_not():
    for block in all_blocks():
        where = f"{block['page']}:{block['line']}"
        kinds = [kind for kind, _ in block["markers"]]
        for kind, value in block["markers"]:
            assert value.strip(), f"{where}: a {kind} marker needs a reason, a command or a directory"
        assert kinds.count("skip") <= 1, where
        assert kinds.count("cwd") <= 1, where
        assert block["steps"] or "skip" in kinds, f"{where}: a console block shows a `$ command`"


def test_every_docs_page_is_read_and_the_readme_comes_first():
    names = [_page_name(path) for path in PAGES]
    assert names[0] == "README.md" and "docs/index.md" in names and "docs/hook.md" in names
    assert {chapter[0]["page"] for chapter in CHAPTERS} >= {"README.md", "docs/aliases.md", "docs/setup.md"}


@pytest.mark.parametrize("chapter", CHAPTERS, ids=[f"{chapter[0]['page']}:line{chapter[0]['line']}" for chapter in CHAPTERS])
def test_readme_examples_print_what_the_readme_shows(chapter, warm_cache):
    # A short HOME, as long as /tmp/alice give or take: dp shortens long paths in some messages.
    scratch = Path(tempfile.mkdtemp(prefix="dpdoc"))
    try:
        failures = run_chapter(chapter, scratch / "alice", warm_cache)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("text, expected", [
    ("<!-- doctest: skip needs the network -->\n```console\n$ a\nb\n```\n", [("skip", "needs the network")]),
    ("<!-- doctest: skip x -->\n\nprose\n```console\n$ a\n```\n", []),
])
def test_markers_belong_to_the_next_block_only(text, expected):
    assert blocks(text)[0]["markers"] == expected


def test_a_command_continues_after_a_backslash():
    assert _steps(["$ printf '%s\\n' a \\", "    b", "a", "b", "$ true"]) == [
        ("printf '%s\\n' a \\\n    b", ["a", "b"]), ("true", [])]


def test_a_fresh_marker_starts_a_chapter():
    text = ("```console\n$ a\n```\n<!-- doctest: fresh new machine -->\n```console\n$ b\n```\n"
            "```console\n$ c\n```\n")
    assert [[block["steps"][0][0] for block in chapter] for chapter in chapters(text)] == [["a"], ["b", "c"]]


def test_a_page_that_starts_with_a_fresh_marker_is_one_chapter_and_names_itself():
    text = "<!-- doctest: fresh a page of its own -->\n```console\n$ a\n```\n"
    assert [[(block["page"], block["steps"][0][0]) for block in chapter]
            for chapter in chapters(text, "docs/x.md")] == [[("docs/x.md", "a")]]


def test_a_slow_hook_reads_as_the_quiet_machine_the_readme_shows():
    slow = ("warn   latency     one call of the installed hook took 496 ms (every tool call pays this)\n"
            "                   fix: make sure the hook command is not a shim and the store is on a local disk\n\n"
            "8 ok, 2 warning(s), 1 error(s)")
    assert normalise(slow, Path("/nowhere"), Path("/nobin")).splitlines() == [
        "ok     latency     one call of the installed hook took <N> ms", "", "9 ok, 1 warning(s), 1 error(s)"]


@pytest.mark.parametrize("reason", ["is inside the repository /work/dp (its own virtual environment)",
                                    "is in a temporary directory"])
def test_only_the_warning_about_where_the_dp_under_test_is_installed_is_taken_out(reason):
    bin_dir = Path("/tmp/tox-3f9a/py311/bin")
    warning = f"{bin_dir}/pave-check {reason}: the hook breaks when it is cleaned up; install dp as a tool instead"
    text = f"Hook:  Installed the dp PreToolUse hook.\n       warning: {warning}\nPaving: on"
    data = f'{{\n  "timeout": 5,\n  "warning": "{warning}"\n}}'
    assert normalise(text, Path("/nowhere"), bin_dir) == "Hook:  Installed the dp PreToolUse hook.\nPaving: on"
    assert normalise(data, Path("/nowhere"), bin_dir) == '{\n  "timeout": 5\n}'
    # The same warning about another program (one an example installed itself) is shown as printed.
    other = text.replace(str(bin_dir), "/opt/team/bin")
    assert normalise(other, Path("/nowhere"), bin_dir) == other
