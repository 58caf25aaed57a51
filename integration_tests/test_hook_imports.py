"""The hook's import path stays light: heavy modules load only when a rule can apply."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hook_support import build_store

from dp.agents import names

PROBE = """
import io, json, sys
sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode()))
from dp.hook import main
status = main([])
heavy = ("bashlex", "jinja2", "typer", "click", "sqlite_utils", "dp.rules.apply", "dp.shell.segment", "mcp",
         "dp.shell.placement", "dp.shell.lexer")
print(json.dumps({"status": status, "loaded": sorted(name for name in heavy if name in sys.modules)}))
"""

RULES = [
    ["read_file", "Read"],
    ["--cmd", "grep", "--replace", "rg"],
    ["--recipe", "gt convoy wait", "gt convoy status {{ arg(1) }}"],
    ["--recipe", "gt loop", "{% for a in args %}gt status {{ a }}; {% endfor %}"],
    ["--recipe", "gt many", "gt status {{ args[1:] | join(' ') }} {{ arg(5) | default('open') }} {{ cwd|value }}\n"
                            "gt log {{.Args}} {{ arg(2)|quote }} {{ matched }} {{ raw|raw }}"],
]


@pytest.fixture(scope="module")
def store_env(tmp_path_factory):
    return build_store(tmp_path_factory.mktemp("hook-imports"), RULES)


def probe(env, payload) -> dict:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(payload)], capture_output=True, text=True, env=env, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


def bash(command):
    return {"tool_name": "Bash", "tool_input": {"command": command}}


@pytest.mark.parametrize(
    "payload, status",
    [
        ({"tool_name": "Read", "tool_input": {"file_path": "/x"}}, 0),
        ({"tool_name": "read_file", "tool_input": {}}, 2),
        (bash("ls -la && git status"), 0),
        (bash("echo 'grep is only mentioned' \"and grep here\""), 0),
    ],
)
def test_no_heavy_imports_when_no_rule_can_apply(store_env, payload, status):
    assert probe(store_env, payload) == {"status": status, "loaded": []}


def test_the_parser_loads_only_when_a_rule_command_occurs_in_more_than_plain_words(store_env):
    """A command of plain words (most agent commands) is split without the lexer or bashlex."""
    # lists and pipelines of them too, and words holding quoted plain text
    for command in ("grep -n x f", "cd src && grep -n x f | wc -l", "grep -n 'x y' f | wc -l",
                    'git commit -m "fix: it" && grep --include=\'*.py\' -rn x .'):
        proc = probe(store_env, bash(command))
        assert proc == {"status": 0, "loaded": ["dp.rules.apply", "dp.shell.segment"]}, command
    loaded = probe(store_env, bash('grep -n "$x" f | wc -l'))["loaded"]
    assert "bashlex" in loaded and "dp.shell.lexer" in loaded and "dp.shell.segment" in loaded
    assert "jinja2" not in loaded and "typer" not in loaded


def test_recipes_in_dps_own_language_do_not_need_jinja2(store_env):
    """Compiled when written; the hook runs the stored program (not even the placement check)."""
    for command in ("gt convoy wait c1", "gt many a 'b c' $HOME && ls"):
        loaded = probe(store_env, bash(command))["loaded"]
        assert "jinja2" not in loaded and "dp.shell.placement" not in loaded, (command, loaded)
    assert "jinja2" in probe(store_env, bash("gt loop a b"))["loaded"]


def test_paving_words_outside_any_project_parse_nothing(store_env, tmp_path):
    outside = {**bash("npm install && pytest -q && make test"), "cwd": str(tmp_path)}
    assert probe(store_env, outside) == {"status": 0, "loaded": []}


def test_paving_in_a_project_loads_the_parser_but_not_the_cli(store_env, tmp_path):
    (tmp_path / "package.json").write_text('{"name": "app"}')
    (tmp_path / "pnpm-lock.yaml").write_text("lockfileVersion: '9.0'\n")
    loaded = probe(store_env, {**bash("npm install && npm test -- --grep \"$PATTERN\""), "cwd": str(tmp_path)})["loaded"]
    assert "bashlex" in loaded and "typer" not in loaded and "jinja2" not in loaded
    for command in ("npm install", "npm install && npm test -- --grep 'a b'"):  # plain words: no parser
        plain = probe(store_env, {**bash(command), "cwd": str(tmp_path)})["loaded"]
        assert "dp.shell.segment" in plain and "bashlex" not in plain and "typer" not in plain, command


JINJA_PROBE = """
import io, json, sys
already = set(sys.modules)  # an editable install's import hook brings importlib.util at start-up
sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode()))
from dp.hook import main
status = main([])
avoidable = ("pickle", "hashlib", "tempfile", "zipimport", "importlib.util")
print(json.dumps({"jinja2": "jinja2" in sys.modules, "loaders": sys.modules["jinja2.loaders"].__doc__,
                  "loaded": sorted(name for name in avoidable if name in set(sys.modules) - already)}))
"""


def test_a_jinja2_recipe_loads_neither_jinja2s_caches_nor_its_loaders(store_env):
    """dp caches compiled templates itself: pickle, hashlib and tempfile stay out of the hook."""
    for _ in range(2):  # the first call compiles and caches the template, the second reads the cache
        proc = subprocess.run([sys.executable, "-c", JINJA_PROBE, json.dumps(bash("gt loop a b"))],
                              capture_output=True, text=True, env=store_env, timeout=60)
        assert proc.returncode == 0, proc.stderr
        hook_output, report = proc.stdout.splitlines()
        assert json.loads(hook_output)["hookSpecificOutput"]["updatedInput"]["command"] == "gt status a; gt status b;"
        report = json.loads(report)
        assert report["jinja2"] and report["loaded"] == []
        assert report["loaders"].startswith("A placeholder")


def test_paving_outside_a_project_loads_neither_pathlib_nor_contextlib(store_env, tmp_path):
    """Both cost the hook milliseconds on every npm/pytest/make call (pathlib about 3 ms)."""
    script = JINJA_PROBE.replace('avoidable = (', 'avoidable = ("pathlib", "contextlib", ').replace(
        '"loaders": sys.modules["jinja2.loaders"].__doc__,', '')
    payload = {**bash("npm install && pytest -q"), "cwd": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-I", "-c", script, json.dumps(payload)],
                          capture_output=True, text=True, env=store_env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.splitlines()[-1])["loaded"] == []


LAYER_PROBE = """
import io, json, sys
already = set(sys.modules)
sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode()))
from dp.hook import main
status = main([])
watched = ("tomllib", "hashlib", "pathlib", "dp.rules.collection", "dp.layers.projectfile", "dp.rules.apply",
           "bashlex", "jinja2", "typer")
print(json.dumps({"status": status, "loaded": sorted(name for name in watched if name in set(sys.modules) - already)}))
"""


def _layer_probe(env, payload) -> dict:
    proc = subprocess.run([sys.executable, "-c", LAYER_PROBE, json.dumps(payload)], capture_output=True, text=True,
                          env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


def _trusted_repository(env, tmp_path) -> Path:
    """A repository (with src/deep inside) whose .dp/rules.toml, one flag rule for bd, the user trusted."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "src" / "deep").mkdir(parents=True)
    (repo / ".dp").mkdir()
    (repo / ".dp" / "rules.toml").write_text('[[aliases]]\nfrom = "wisp"\nto = "ephemeral"\ntool = "Bash"\n'
                                             'param = "command"\ncommand = "bd"\nmatch_kind = "flag"\n')
    assert subprocess.run([str(Path(sys.executable).parent / "dp"), "trust", "-C", str(repo)], env=env,
                          capture_output=True, timeout=60).returncode == 0
    return repo


def test_a_project_file_is_parsed_once_then_read_from_the_cache(store_env, tmp_path):
    """The project layer costs a stat walk and a cache read: TOML, hashing and the rule logic load
    only on the first call after the file changed, or when one of its rules concerns the call."""
    repo = _trusted_repository(store_env, tmp_path)
    unrelated = {**bash("ls -la && git status"), "cwd": str(repo / "src" / "deep")}
    assert _layer_probe(store_env, unrelated) == {"status": 0, "loaded": []}
    (repo / ".dp" / "rules.toml").write_text((repo / ".dp" / "rules.toml").read_text() + "# changed\n")
    first = _layer_probe(store_env, unrelated)["loaded"]
    assert "tomllib" in first and "hashlib" in first and "dp.rules.apply" not in first  # parsed again, untrusted
    assert "dp.layers.projectfile" in first  # the parse
    assert _layer_probe(store_env, unrelated)["loaded"] == []  # and cached
    outside = {**bash("bd create --wisp x"), "cwd": str(tmp_path)}
    assert _layer_probe(store_env, outside) == {"status": 0, "loaded": []}


def test_a_trusted_project_rule_loads_what_a_store_rule_loads(store_env, tmp_path):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / ".dp").mkdir()
    (repo / ".dp" / "rules.toml").write_text('[[aliases]]\nfrom = "wisp"\nto = "ephemeral"\ntool = "Bash"\n'
                                             'param = "command"\ncommand = "bd"\nmatch_kind = "flag"\n')
    assert subprocess.run([str(Path(sys.executable).parent / "dp"), "trust", "-C", str(repo)], env=store_env,
                          capture_output=True, timeout=60).returncode == 0
    _layer_probe(store_env, {**bash("ls"), "cwd": str(repo)})  # fills the cache
    report = _layer_probe(store_env, {**bash("bd create --wisp x"), "cwd": str(repo)})
    assert report["status"] == 0 and "dp.rules.apply" in report["loaded"]
    assert not {"tomllib", "hashlib", "bashlex", "jinja2", "typer", "pathlib"} & set(report["loaded"])


MODULES_PROBE = """
import io, json, sys
already = set(sys.modules)  # what the interpreter (and an editable install's import hook) brought
sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[2].encode()))
from dp.hook import main
status = main(["--agent", sys.argv[1]])
loaded = set(sys.modules) - already
print(json.dumps({"status": status, "dp": sorted(name for name in loaded if name.split(".")[0] == "dp"),
                  "stdlib": sorted(name for name in loaded if name.split(".")[0] != "dp")}))
"""

# Every dp module a call no rule touches imports, one by one: each costs the hook about 0.1 ms
# (importlib's own work, whatever the module's size), and a dozen of them were what held the
# no-match cases over their budget (docs/benchmarks.md). A module added here must pay for itself.
# Such a call is answered from the gate beside the store (dp.hook.gate): no SQLite, no layer walk.
NO_MATCH_MODULES = ["dp", "dp.agents", "dp.agents.base", "dp.hook", "dp.hook.gate", "dp.rules", "dp.shell",
                    "dp.shell.guard", "dp.store", "dp.store.location"]
BASH_WORDS_MODULES = ["dp.shell.words"]
# A call holding a word the gate lists takes the full path: the store, the walk to a project's layer
# files. A paving word no rule is keyed on first costs paving's marker walk, which ends it in no project.
FULL_PATH_MODULES = ["dp.layers", "dp.layers.locate", "dp.paths", "dp.store.connection", "dp.store.read"]
PAVING_MODULES = ["dp.paths", "dp.paving", "dp.paving.markers", "dp.paving.words"]
# A trusted project file's cached read and trust check, when a call names one of its commands.
LAYER_MODULES = ["dp.cachedir", "dp.layers.effective"]
# What the floor (`python -I -c "import sqlite3, json"`) imports and the hook does without: sqlite3's
# Python layer and datetime (dp.store.connection uses the C module), __future__, zlib, pathlib.
NEVER_ON_THE_HOT_PATH = {"sqlite3", "sqlite3.dbapi2", "datetime", "__future__", "zlib", "pathlib", "typing",
                         "dataclasses", "enum", "hashlib", "tomllib", "importlib.util", "contextlib"}


def _modules(env, agent: str, payload: dict) -> dict:
    proc = subprocess.run([sys.executable, "-c", MODULES_PROBE, agent, json.dumps(payload)], capture_output=True,
                          text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


def _adapter(agent: str) -> list:
    """The agent's wire and its package, and the module of the adapter its adapter builds on where it builds
    on one besides ``Agent`` (OpenCode's and Kilo Code's, ``dp.agents.plugin_hooks``): nothing else of dp/agents."""
    from dp.agents import get

    built_on = {cls.__module__ for cls in type(get(agent)).__mro__[1:]} - {"dp.agents.base", "builtins"}
    return sorted({f"dp.agents.{agent}", f"dp.agents.{agent}.wire", *built_on})


@pytest.mark.parametrize("agent", names())
def test_a_call_no_rule_touches_imports_exactly_these_modules(store_env, tmp_path, agent):
    """Counted, not timed: the no-match paths of every agent (a non-Bash tool, a Bash command no rule
    names, a paving word in no project) import the listed dp modules and none of the avoidable stdlib
    ones. The store holds `read_file → Read`, which in Gemini CLI and Qwen Code is the tool itself:
    it neither blocks nor loads the other agents' adapters."""
    from dp.agents import get

    adapter = get(agent)
    hooks = adapter.hooks()  # the install side, here in the test: the hook's own import is what is counted
    read = hooks.sample_payload(adapter.agent_tool("Read"), {"file_path": "/x"}, str(tmp_path))
    bash_call = hooks.sample_payload(adapter.agent_tool("Bash"), {"command": "git status && ls -la | head -5"},
                                     str(tmp_path))
    paving_word = hooks.sample_payload(adapter.agent_tool("Bash"), {"command": "npm ci && npm test"},
                                       str(tmp_path))
    expected = sorted(NO_MATCH_MODULES + _adapter(agent))
    report = _modules(store_env, agent, read)  # in Gemini CLI and Qwen Code the alias's name is the tool's own
    assert (report["status"], report["dp"]) == (0, expected)
    assert not NEVER_ON_THE_HOT_PATH & set(report["stdlib"]), report["stdlib"]
    report = _modules(store_env, agent, bash_call)
    assert (report["status"], report["dp"]) == (0, sorted(expected + BASH_WORDS_MODULES))
    assert not NEVER_ON_THE_HOT_PATH & set(report["stdlib"]), report["stdlib"]
    report = _modules(store_env, agent, paving_word)  # in no project: paving's marker walk, and no store
    assert (report["status"], report["dp"]) == (0, sorted(expected + BASH_WORDS_MODULES + PAVING_MODULES))
    assert not NEVER_ON_THE_HOT_PATH & set(report["stdlib"]), report["stdlib"]


def test_a_trusted_project_file_adds_nothing_to_a_call_its_rules_do_not_name(store_env, tmp_path):
    """The trusted file's words are in the gate (the full path would find no rule of it here), so
    neither its cached read nor the walk up to it is paid; a call naming its command reads it."""
    repo = _trusted_repository(store_env, tmp_path)
    unrelated = {**bash("git status && ls -la | head -5"), "cwd": str(repo / "src" / "deep")}
    report = _modules(store_env, "claude", unrelated)
    assert report["dp"] == sorted(NO_MATCH_MODULES + _adapter("claude") + BASH_WORDS_MODULES)
    assert not NEVER_ON_THE_HOT_PATH & set(report["stdlib"]), report["stdlib"]
    named = {**bash("bd list"), "cwd": str(repo / "src" / "deep")}
    _modules(store_env, "claude", named)  # the first call after trust fills the cache
    report = _modules(store_env, "claude", named)
    assert set(LAYER_MODULES + FULL_PATH_MODULES) <= set(report["dp"])
