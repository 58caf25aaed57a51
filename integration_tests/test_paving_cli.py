"""The user's side of project paving: dp init says it is on, dp paving/doctor/aliases/
pave --agents-md/tasks explain it for the current directory, one switch turns it off, and
each says whether the repository is trusted (what paving may run there)."""

from __future__ import annotations

import json

import pytest
from paving_projects import git_init, make_js_project, make_python_project, user_tools


@pytest.fixture
def env(env, tmp_path):
    """The user's pnpm, yarn and bun on PATH: paving swaps only to a manager the user installed."""
    return {**env, "PATH": f"{user_tools(tmp_path / 'user-tools')}:{env['PATH']}"}


def test_init_says_paving_is_on(dp):
    proc = dp("init")
    assert proc.returncode == 0, proc.stderr
    assert "Paving: on — the agent's npm/yarn/pnpm/bun commands, Python tools and task commands" in proc.stdout
    assert json.loads(dp("init", "--json").stdout)["paving"] == {"enabled": True}
    dp("paving", "off")
    assert "Paving: off (you switched it off; dp paving on turns it back on)" in dp("init").stdout


def test_dp_paving_explains_each_ecosystem(dp, tmp_path):
    repo = make_js_project(tmp_path / "repo", "yarn-berry")
    git_init(repo)
    make_python_project(repo, "uv", tools=("ruff",))
    proc = dp("paving", cwd=repo)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "Project paving: on"
    assert any(line.startswith("ok        javascript yarn: yarn.lock found: yarn (berry) → npm, pnpm and bun commands are paved to yarn")
               for line in lines), proc.stdout
    assert "npm ci  →  yarn install --immutable" in proc.stdout
    assert lines[1] == (f"Trust: {repo} is not trusted: paving only swaps package managers you installed; it runs "
                        "the repository's own programs after `dp trust` there (only the person runs that, in their own terminal; an agent asks them to)")
    assert (f"untrusted python     uv: [project.scripts] with uv.lock: uv run; environment {repo.resolve()}/.venv → "
            "not used: it is the repository's own") in proc.stdout
    assert "pytest ARGS" not in proc.stdout
    explained = dp("paving", "--explain", cwd=repo).stdout
    assert ("  left as typed  pytest, ruff, mypy … and python -m MODULE → uv run / poetry run / pdm run / hatch run "
            "(the project's own environment)") in explained
    assert dp("trust", cwd=repo).returncode == 0
    proc = dp("paving", "--verbose", cwd=repo)
    assert f"ok        python     uv: [project.scripts] with uv.lock: uv run; environment {repo.resolve()}/.venv" in proc.stdout
    assert "pytest ARGS  →  uv run --frozen pytest ARGS" in proc.stdout
    assert "  acts           pytest, ruff, mypy" in proc.stdout
    result = json.loads(dp("paving", "--json", cwd=repo).stdout)
    assert [entry["ecosystem"] for entry in result["ecosystems"]] == ["javascript", "python", "tasks"]
    assert result["trusted"] is True and result["root"] == str(repo)


def test_bad_input_is_one_line(dp):
    proc = dp("paving", "maybe")
    assert proc.returncode != 0 and proc.stderr == "dp: error: expected on or off, got 'maybe': dp paving [on|off] [--project]\n"
    proc = dp("paving", "--project")
    assert proc.returncode != 0 and proc.stderr.startswith("dp: error: --project needs on or off")


def test_doctor_aliases_and_agents_md_show_the_project_rules(dp, tmp_path):
    repo = make_js_project(tmp_path / "repo", "bun")
    git_init(repo)
    doctor = dp("doctor", cwd=repo)
    assert "ok     paving      javascript: bun: bun.lock found: bun → npm, yarn and pnpm commands are paved to bun" in doctor.stdout
    aliases = dp("aliases", cwd=repo)
    assert aliases.returncode == 0
    assert "npm test                →  bun run test" in aliases.stdout, aliases.stdout
    agents = dp("pave", "--agents-md", cwd=repo)
    assert "# Project Commands" in agents.stdout and "- `npm test` → `bun run test`" in agents.stdout
    dp("paving", "off", "--project", cwd=repo)
    assert "Project Commands" not in dp("pave", "--agents-md", cwd=repo).stdout
    assert "paving      project paving is switched off for" in dp("doctor", cwd=repo).stdout


def test_an_npm_project_shows_each_pnpm_spelling_once(dp, tmp_path):
    """In an npm project the samples are shown as pnpm commands: `npx DEPENDENCY` is `pnpm exec`, `npx BIN` `pnpm dlx`."""
    repo = make_js_project(tmp_path / "repo", "npm")
    git_init(repo)
    lines = [line.split("→")[0].strip() for line in dp("aliases", cwd=repo).stdout.splitlines() if "→  npx" in line]
    assert lines == ["pnpm exec DEPENDENCY"]  # `npx BIN` may run node_modules/.bin/BIN: only after dp trust
    dp("trust", cwd=repo)
    lines = [line.split("→")[0].strip() for line in dp("aliases", cwd=repo).stdout.splitlines() if "→  npx" in line]
    assert lines == ["pnpm exec DEPENDENCY", "pnpm dlx BIN"]


def test_ambiguity_is_a_doctor_warning_with_the_fix(dp, tmp_path):
    repo = make_js_project(tmp_path / "repo", "pnpm")
    git_init(repo)
    (repo / "package-lock.json").write_text("{}\n")
    doctor = dp("doctor", cwd=repo)
    assert ("warn   paving      javascript: not paved: conflicting lockfiles (pnpm-lock.yaml, package-lock.json); "
            "set packageManager in package.json or delete the lockfiles of the managers you do not use") in doctor.stdout
    tasks = dp("tasks", cwd=repo)
    assert "set packageManager in package.json to decide" in tasks.stdout
