"""dp's own corpus of agent one-liners: exact rewrites, valid Bash, and an independent judge.

``integration_tests/data/corpus.txt`` holds ~250 realistic commands with what
they become under grep → rg, find → fd (translation tables), ls → eza and
cat → bat (renames). Every output must be exactly the recorded one and pass
``bash -n``. Then the same commands go through the corpus bench's judge
(``bench/run_corpus_bench.py``): under rename-only rules, tree-sitter-bash —
a parser sharing no code with dp — must agree on every command dp renames:
no missed command, no false rewrite, nothing corrupted.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "integration_tests" / "data" / "corpus.txt"
sys.path.insert(0, str(ROOT / "bench"))

import corpus  # noqa: E402
import run_corpus_bench as bench  # noqa: E402

from dp.rules.apply import rewrite  # noqa: E402
from dp.rules.model import BASH_PARAM, BASH_TOOL, COMMAND, Rule  # noqa: E402

RULES = [Rule(source, target, BASH_TOOL, BASH_PARAM, source, COMMAND)
         for source, target in (("grep", "rg"), ("find", "fd"), ("ls", "eza"), ("cat", "bat"))]
ENTRIES = corpus.entries(CORPUS)


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def rewritten(command: str, rules) -> str:
    result = rewrite({"command": command}, rules)
    return command if result is None else result.updated_input["command"]


def test_the_corpus_is_large_and_varied():
    assert len(ENTRIES) >= 250
    changed = [command for command, expected in ENTRIES if expected != command]
    assert len(changed) >= 150 and len(ENTRIES) - len(changed) >= 50


def test_every_command_is_rewritten_exactly_as_recorded():
    wrong = [(command, expected, got) for command, expected in ENTRIES
             if (got := rewritten(command, RULES)) != expected]
    assert wrong == []


def test_every_rewrite_is_valid_bash(tmp_path):
    outputs = [expected for _, expected in ENTRIES]
    checks = bench.syntax_checks(outputs, str(tmp_path))
    assert [output for output, ok in zip(outputs, checks) if not ok] == []


def test_an_independent_parser_agrees_on_every_command_dp_renames(tmp_path):
    tree_sitter = pytest.importorskip("tree_sitter", reason="LOUD SKIP: pip install '.[test]' installs tree-sitter")
    tree_sitter_bash = pytest.importorskip("tree_sitter_bash")
    judge = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))
    commands = [command for command, _ in ENTRIES]
    renamed = [bench.dp_rewrite(command, bench.rules()) for command in commands]
    before = bench.syntax_checks(commands, str(tmp_path))
    after = bench.syntax_checks(renamed, str(tmp_path))
    verdicts = {}
    for command, new, ok_before, ok_after in zip(commands, renamed, before, after):
        names = bench.judged_names(judge, command)
        if names is not None and ok_before:
            verdicts.setdefault(bench.classify(command, new, names, ok_after), []).append((command, new))
    assert {kind: verdicts.get(kind, []) for kind in ("missed", "false", "corrupted")} == {
        "missed": [], "false": [], "corrupted": []
    }
    assert len(verdicts["exact"]) >= 200


def test_the_corpus_file_is_what_the_reader_reads():
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "corpus.py"), str(CORPUS)], capture_output=True, text=True)
    assert proc.stdout.startswith(f"{len(ENTRIES)} commands")
