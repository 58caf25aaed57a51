"""Issue 49, finding 3: the model is taught only what acts here, and a committed file gets only committed rules.

The session-start context (every agent's, through the real pave-check and that agent's own SessionStart
JSON) and ``dp pave --agents-md`` list a command rule only where the hook would apply it: ``find → fd`` and
``pip → uv pip`` are taught where ``fd`` and ``uv`` are on PATH (a real bin directory of this test), and
left out where the hook leaves ``find`` as typed ("fd is not on PATH"). ``dp pave --agents-md --output``
writes the repository's committed rules (``.dp/rules.toml``, trusted) and a person's own (their store,
``.dp/rules.local.toml``) only with ``--include-personal``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hook_support import programs_dir

from dp.agents import all_agents, get

BIN = Path(sys.executable).parent
TAUGHT = ("Use `fd` instead of `find`", "Use `uv pip` instead of `pip`")


def run(env: dict, *args, cwd=None, stdin=None) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / args[0]), *map(str, args[1:])], capture_output=True, text=True, env=env,
                          cwd=cwd, input=stdin, timeout=60)


def a_path(tmp_path: Path, with_programs: bool) -> str:
    """A real PATH: the machine's basic tools (bash, git) linked into a bin directory of the test's own, and
    ``fd`` and ``uv`` there only ``with_programs``. Nothing else of the machine's PATH, so a machine that has
    fd or uv installed gives the same answer."""
    directory = tmp_path / ("bin-with" if with_programs else "bin-without")
    if not directory.exists():
        links = {name: name for name in ("bash", "sh", "git", "env", "cat", "true")}
        if with_programs:
            links.update(fd="true", uv="true")
        programs_dir(directory, **links)
    return str(directory)


@pytest.fixture
def person(tmp_path):
    """A person's store with ``find → fd`` and ``pip → uv pip`` (set where fd and uv are there) and a
    repository they work in."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DP_", "CLAUDE"))}
    env.update({"HOME": str(tmp_path / "home"), "DP_DB": str(tmp_path / "dp.db"), "NO_COLOR": "1",
                "XDG_CACHE_HOME": str(tmp_path / "cache")})
    (tmp_path / "home").mkdir()
    setting = {**env, "PATH": f"{a_path(tmp_path, True)}{os.pathsep}{env['PATH']}"}
    for args in (("--cmd", "find", "--replace", "fd"), ("--cmd", "pip", "--replace", "uv pip")):
        assert run(setting, "dp", "alias", *args).returncode == 0
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "src" / "app.py").write_text("print('hi')\n")
    return env, repo


def session_start(env: dict, agent: str, cwd: Path) -> str:
    """What the real pave-check tells ``agent``'s model at session start, read by that agent's adapter."""
    payload = {**get(agent).role("wire").SESSION_START_SAMPLE, "cwd": str(cwd)}
    proc = run(env, "pave-check", "--agent", agent, stdin=json.dumps(payload), cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


# The agents whose model reads what dp says at session start (the promise; Auggie 0.36.0 drops it).
STATING = [agent.name for agent in all_agents()
           if any(promise.name == "session_context" and promise.kept for promise in agent.promises())]


@pytest.mark.parametrize("agent", STATING)
def test_session_start_teaches_a_rewrite_only_where_its_program_is_on_path(person, tmp_path, agent):
    env, repo = person
    without = session_start({**env, "PATH": a_path(tmp_path, False)}, agent, repo)
    assert "`fd`" not in without and "uv pip" not in without
    with_them = json.dumps(json.loads(session_start({**env, "PATH": a_path(tmp_path, True)}, agent, repo)))
    for line in TAUGHT:
        assert json.dumps(line)[1:-1] in with_them, agent


def test_agents_md_teaches_a_rewrite_only_where_its_program_is_on_path(person, tmp_path):
    env, repo = person
    without = run({**env, "PATH": a_path(tmp_path, False)}, "dp", "pave", "--agents-md", cwd=repo)
    assert without.returncode == 0 and without.stdout == ""
    assert "dp: not taught, cannot act here: fd not on PATH: Use `fd` instead of `find`" in without.stderr
    assert "dp: not taught, cannot act here: uv not on PATH: Use `uv pip` instead of `pip`" in without.stderr
    with_them = run({**env, "PATH": a_path(tmp_path, True)}, "dp", "pave", "--agents-md", cwd=repo)
    assert with_them.returncode == 0 and all(line in with_them.stdout for line in TAUGHT)
    assert with_them.stderr == ""
    report = json.loads(run({**env, "PATH": a_path(tmp_path, False)}, "dp", "pave", "--agents-md", "--json",
                            cwd=repo).stdout)
    assert report["count"] == 0
    assert {item["rule"]: item["why"] for item in report["left_out"]} == {
        "Use `fd` instead of `find`": "cannot act here: fd not on PATH",
        "Use `uv pip` instead of `pip`": "cannot act here: uv not on PATH"}


def test_a_file_gets_the_committed_rules_and_the_persons_own_only_when_asked(person, tmp_path):
    env, repo = person
    env = {**env, "PATH": f"{a_path(tmp_path, True)}{os.pathsep}{env['PATH']}"}
    home = Path(env["HOME"])
    assert run(env, "dp", "alias", "--tool", "Edit", "--param", "file_path", "--regex", "^/tmp/(.*)",
               f"{home}/scratch/$1").returncode == 0
    assert run(env, "dp", "alias", "--project", "--cmd", "make", "--replace", "just", cwd=repo).returncode == 0
    (repo / ".dp" / "rules.local.toml").write_text(
        '[meta]\nversion = 1\n\n[[aliases]]\nfrom = "ls"\nto = "eza"\ntool = "Bash"\nparam = "command"\ncommand = "ls"\nmatch_kind = "command"\n')
    assert run(env, "dp", "trust", cwd=repo).returncode == 0
    programs_dir(Path(a_path(tmp_path, True)), just="true", eza="true")

    written = run(env, "dp", "pave", "--agents-md", "--output", "AGENTS.md", cwd=repo)
    assert written.returncode == 0, written.stderr
    assert written.stdout == "AGENTS.md: created with dp's block (1 rule)\n"
    assert ("dp: 4 personal rules (your store, .dp/rules.local.toml) left out of a file a team may commit; "
            "--include-personal writes them too") in written.stderr
    block = (repo / "AGENTS.md").read_text()
    assert "Use `just` instead of `make`" in block
    assert str(home) not in block and "`fd`" not in block and "eza" not in block

    everything = run(env, "dp", "pave", "--agents-md", "--output", "AGENTS.md", "--include-personal", cwd=repo)
    assert everything.stdout == "AGENTS.md: dp's block replaced (5 rules)\n" and "personal" not in everything.stderr
    block = (repo / "AGENTS.md").read_text()
    assert all(text in block for text in (f"{home}/scratch/$1", "Use `fd` instead of `find`", "`eza`", "`just`"))
    printed = run(env, "dp", "pave", "--agents-md", cwd=repo)  # printing is the person's view: every rule acting
    assert printed.stdout == block.split("<!-- dp:begin -->\n", 1)[1].split("<!-- dp:end -->")[0]


def test_include_personal_goes_with_agents_md(person):
    env, repo = person
    proc = run(env, "dp", "pave", "--hook", "--include-personal", cwd=repo)
    assert proc.returncode != 0
    assert proc.stderr.strip() == "dp: error: --output, --tasks and --include-personal go with --agents-md"
    assert shutil.which("dp", path=str(BIN))


def test_codex_demo_on_a_machine_without_ripgrep_teaches_nothing_it_cannot_do(tmp_path, dp):
    """Codex's demo has no tool-name alias to show, only grep → rg at session start: without rg the model
    is told nothing, and the demo succeeds (it checks that the rule is NOT taught there)."""
    from stock_machine import stock_path

    proc = dp("init", "--agent", "codex", extra_env={"PATH": stock_path(tmp_path)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert ("  session starts: nothing to tell the model (a rule whose program is missing here is not taught)\n"
            in proc.stdout)
    assert "Use `rg`" not in proc.stdout
