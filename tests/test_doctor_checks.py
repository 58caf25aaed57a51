"""dp.doctor.rules: the fix commands doctor prints must really work."""

from __future__ import annotations

import shlex

import pytest

from dp.cli.main import main
from dp.doctor.rules import delete_command
from dp.rules.model import Rule
from dp.store import Store

RULES = [
    Rule("read_file", "Read"),
    Rule("r", "R", "Bash", "command", "scp", "flag"),
    Rule("recursive", "R", "Bash", "command", "scp", "flag"),
    Rule("grep", "rg", "Bash", "command", "grep", "command"),
    Rule("user@old:", "user@new:", "Bash", "command", "scp", "literal"),
    Rule("-k", "--cacert ca.pem", "Bash", "command", "curl", "literal"),
    Rule(r"host(\d+)", "h$1", "Bash", "command", "ssh", "regex"),
    Rule("/old dir/", "/new/", "Edit", "file_path", "", "literal"),
    Rule("^/tmp/(.*)", "/scratch/$1", "Edit", "file_path", "", "regex"),
    Rule("gt await-signal", "gt mol status", "Bash", "command", "gt", "recipe"),
]


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: f"{rule.kind_label}:{rule.from_name}")
def test_delete_command_deletes_exactly_that_rule(tmp_path, rule, capsys):
    db = tmp_path / "dp.db"
    with Store.open(db) as store:
        for each in RULES:
            store.set_rule(each)
    words = shlex.split(delete_command(rule))
    assert words[:3] == ["dp", "alias", "--delete"]
    assert main(["--db", str(db), *words[1:]]) == 0, capsys.readouterr().err
    with Store.open(db) as store:
        remaining = store.list_rules()
    assert [r.key for r in remaining] == [r.key for r in RULES if r.key != rule.key]


def test_no_check_says_ok_with_a_fix():
    """An unmet check is never "ok" (issue 38, 10): a finding that carries a fix is a warning or an error."""
    import ast
    from pathlib import Path

    offenders = []
    for module in sorted((Path(__file__).resolve().parents[1] / "dp" / "doctor").glob("*.py")):
        for node in ast.walk(ast.parse(module.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Finding" and len(node.args) >= 2:
                ok = getattr(node.args[1], "id", "") == "OK"
                if ok and (len(node.args) >= 4 or any(keyword.arg == "fix" for keyword in node.keywords)):
                    offenders.append(f"{module.name}:{node.lineno}")
    assert offenders == []
