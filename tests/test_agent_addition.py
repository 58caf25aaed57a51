"""Adding an agent is its folder, its tests, its page and one registry line — nothing else.

Every place that lists the agents asks the registry (``dp.agents.NAMES``), so a copy of dp with a
seventh agent added only that way (tests/seventh_agent.py) must show it everywhere: the site's nav, the
overview table and its links (mkdocs_agents.py), ``dp init --agent``, ``dp ingest``'s session option,
``dp doctor --live --agent``, the hook. The wheel is checked in tests/test_packaging.py. And no test
keeps a list of the agents of its own: it asks the registry, so a new agent needs no edit there either.
A list kept by hand anywhere here fails one of these tests.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
from pathlib import Path

import pytest
from seventh_agent import DISPLAY, NAME, PYTHON, ROOT, environment, template, with_new_agent

from dp.agents import get, names


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    return with_new_agent(tmp_path_factory.mktemp("seventh"))


def run(copy: Path, code: str, *args, stdin: str = "", home: Path | None = None) -> subprocess.CompletedProcess:
    env = environment(copy)
    if home is not None:
        env.update({"HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache"), "XDG_CONFIG_HOME": str(home / ".config")})
    return subprocess.run([PYTHON, "-c", code, *args], cwd=copy.parent, env=env, input=stdin, capture_output=True,
                          text=True, timeout=300)


def dp(copy: Path, tmp_path: Path, *args) -> str:
    proc = run(copy, "import sys; from dp.cli.main import main; sys.argv[0] = 'dp'; main()", *args,
               home=tmp_path / "home")
    assert proc.returncode == 0, proc.stderr
    return " ".join(proc.stdout.split())


def test_the_copy_imports_its_own_dp(copy):
    proc = run(copy, "import dp.agents as a; print(a.__file__); print(' '.join(a.names()))")
    where, listed = proc.stdout.splitlines()
    assert Path(where).is_relative_to(copy) and listed.split() == [*names(), NAME]


def test_the_site_lists_the_new_agent_in_its_nav_table_and_links(copy, tmp_path):
    site = tmp_path / "site"
    proc = subprocess.run([PYTHON, "-m", "mkdocs", "build", "--strict", "--config-file", str(copy / "mkdocs.yml"),
                           "--site-dir", str(site)], cwd=copy, env=environment(copy), capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (site / "agents" / NAME / "index.html").is_file()
    overview = (site / "agents" / "index.html").read_text(encoding="utf-8")
    header = re.search(r"<thead>(.*?)</thead>", overview, re.S).group(1)
    assert re.findall(r"<th>([^<]*)</th>", header)[1:] == [get(name).display for name in names()] + [DISPLAY]
    assert f'href="{NAME}/">{DISPLAY}</a>' in overview  # the links under the table
    assert f'href="agents/{NAME}/"' in (site / "index.html").read_text(encoding="utf-8")  # the nav
    page = (site / "agents" / NAME / "index.html").read_text(encoding="utf-8")
    assert page.count("<tr>") == 1 + 6  # its own table, filled from its promises


def test_the_command_line_offers_the_new_agent(copy, tmp_path):
    assert re.search(rf"--agent NAME .*\b{NAME}\b", dp(copy, tmp_path, "init", "--help"))
    agent = get(template())
    if agent.has_role("sessions"):
        assert f"--{NAME}-sessions" in dp(copy, tmp_path, "ingest", "--help")
    if agent.has_role("live"):
        assert re.search(rf"With --live: the agent to run, .*\b{NAME}\b", dp(copy, tmp_path, "doctor", "--help"))


def test_the_hook_answers_for_the_new_agent(copy, tmp_path):
    """pave-check --agent zed reads the payload and answers as the agent it was copied from does."""
    agent = get(template())
    shell = next((own for own, canonical in agent.tool_names.items() if canonical == "Bash"), "Bash")
    payload = json.dumps(agent.hooks().sample_payload(shell, {"command": "ls"}, tmp_path))
    answers = []
    for name in (template(), NAME):
        proc = run(copy, "import sys; from dp.hook import main; sys.argv[0] = 'pave-check'; main()",
                   "--agent", name, "--verbose", stdin=payload, home=tmp_path / "home")
        answers.append((proc.returncode, proc.stdout, proc.stderr.replace(name, "AGENT")))
    assert answers[0] == answers[1] and "unknown agent" not in answers[1][2]


def _written(home: Path) -> dict:
    """Every file below ``home`` but dp's own store and caches: path relative to ``home`` → content."""
    return {str(path.relative_to(home)): path.read_text(encoding="utf-8") for path in sorted(home.rglob("*"))
            if path.is_file() and path.relative_to(home).parts[0] not in (".dp", ".cache", ".local")}


def test_the_new_agent_installs_its_hooks_as_its_template_does(copy, tmp_path):
    """Its "hooks" role (copied with the folder) writes the template's entries in the new agent's own files:
    ``dp pave --hook --agent zed`` installs, and ``dp pave --unhook`` takes them out again."""
    written = {}
    for name in (template(), NAME):
        home = tmp_path / name / "home"
        dp(copy, home.parent, "pave", "--hook", "--agent", name)
        written[name] = _written(home)
        dp(copy, home.parent, "pave", "--unhook", "--agent", name)
        assert not any("pave-check" in text for text in _written(home).values()), name
    # dp's own install directory may hold any word (a clone at /work/droid): it is taken out before the names
    here = str(Path(PYTHON).parent)
    assert written[NAME] and written[NAME] == {
        path.replace(template(), NAME): text.replace(here, "BIN").replace(template(), NAME).replace("BIN", here)
        for path, text in written[template()].items()}


# -- no test keeps its own list of the agents ------------------------------------------------------------------------

TESTS = [path for folder in ("tests", "integration_tests") for path in sorted((ROOT / folder).rglob("*.py"))
         if path.name != Path(__file__).name]  # this one holds the check's own example


def hand_kept_lists(path: Path, agents: tuple[str, ...], display: tuple[str, ...]) -> list[str]:
    """Literal collections, and strings, that name three or more agents: a list of the agents kept by hand
    (one agent or a pair is a test about those agents; the registry is the one list of them all)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.List, ast.Tuple, ast.Set, ast.Dict)):
            items = node.keys if isinstance(node, ast.Dict) else node.elts
            words = {item.value.lower() for item in items if isinstance(item, ast.Constant) and isinstance(item.value, str)}
            named = words & set(agents) | words & {d.lower() for d in display}
            if len(named) >= 3:
                found.append(f"line {node.lineno}: {sorted(named)}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            named = re.findall(rf"\b({'|'.join(map(re.escape, agents))})\b, ", node.value)
            if len(set(named)) >= 2:  # "claude, gemini, copilot…": a listing's words
                found.append(f"line {node.lineno}: {node.value[:80]!r}")
    return found


def test_no_test_keeps_a_list_of_the_agents():
    agents = names()
    display = tuple(get(name).display for name in agents)
    offenders = {str(path.relative_to(ROOT)): hand_kept_lists(path, agents, display) for path in TESTS}
    assert {path: found for path, found in offenders.items() if found} == {}


def test_the_list_check_sees_a_hand_kept_list(tmp_path):
    module = tmp_path / "test_example.py"
    module.write_text('AGENTS = ["claude", "gemini", "codex"]\nPAIR = ("claude", "gemini")\n'
                      'MESSAGE = "use one of claude, gemini, codex"\n', encoding="utf-8")
    found = hand_kept_lists(module, ("claude", "gemini", "codex"), ("Claude Code", "Gemini CLI", "Codex CLI"))
    assert found == ["line 1: ['claude', 'codex', 'gemini']", "line 3: 'use one of claude, gemini, codex'"]


def test_no_agent_spells_another_tool_with_one_of_dps_own_names():
    """dp's canonical tool names (Claude Code's) answer for themselves in ``canonical_anywhere``,
    which the hook asks on a block without importing every adapter: that holds only while no
    agent uses one of them for a different tool, a new agent included."""
    from dp.agents import all_agents, canonical_anywhere
    from dp.agents.tools import BUILTIN_TOOLS

    for agent in all_agents():
        for own, canonical in agent.tool_names.items():
            assert own not in BUILTIN_TOOLS or canonical == own, (agent.name, own, canonical)
    assert all(canonical_anywhere(name) == name for name in BUILTIN_TOOLS)
