"""The Bash scanner on text nested deeper than it recurses: Unparseable, like any text it cannot read.

Callers already treat Unparseable as "leave it alone" (the hook) or "refuse
the template" (alias recipes, recipe steps); a RecursionError escaped them
all as an internal error before.
"""

from __future__ import annotations

import pytest

from dp.shell.lexer import Unparseable, prepare, regions

DEEP = {
    "substitutions": "echo " + "$(" * 2000 + "x" + ")" * 2000,
    "subshells": "( " * 2000 + "echo x" + " )" * 2000,
    "backticks in substitutions": "echo " + "$(echo `" * 700 + "x" + "`)" * 700,
}


@pytest.mark.parametrize("text", DEEP.values(), ids=DEEP.keys())
@pytest.mark.parametrize("scan", [prepare, regions])
def test_text_nested_too_deeply_is_unparseable(scan, text):
    with pytest.raises(Unparseable, match="nested too deeply"):
        scan(text)


def test_ordinary_nesting_still_scans():
    text = "echo " + "$(" * 30 + "x" + ")" * 30
    assert [kind for _, _, kind in regions(text)].count("substitution") == 30
    assert prepare(text).text == text
