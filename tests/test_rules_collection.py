"""Export / import collections in the Go tool's format."""

from __future__ import annotations

import json
import sys
from datetime import datetime, timezone

import pytest

from dp.errors import DpError
from dp.rules import collection
from dp.rules.model import Rule

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

RULES = [
    Rule("read_file", "Read", message='say "Read"'),
    Rule("r", "R", "Bash", "command", "scp", "flag"),
    Rule("gt await-signal", 'while true; do\n  gt mol status\n  sleep 5\ndone # ünïcode \\ "q"', "Bash", "command", "gt", "recipe"),
    Rule(r"^/old/(\w+)", "/new/$1", "Edit", "file_path", "", "regex"),
]
WHEN = datetime(2026, 11, 21, 12, 0, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_round_trip_keeps_every_field(fmt):
    text = collection.dumps(collection.build_collection(RULES, WHEN, name="team", author="me"), fmt)
    parsed = collection.parse(text, fmt)
    assert [rule.to_dict() for rule in parsed] == [rule.to_dict() for rule in RULES]
    assert collection.parse(text) == parsed  # format sniffed when unknown


def test_toml_has_meta_and_a_datetime_like_the_go_tool():
    text = collection.dumps(collection.build_collection(RULES, WHEN, name="team"), "toml")
    data = tomllib.loads(text)
    assert data["meta"]["version"] == 1
    assert data["meta"]["count"] == 4
    assert data["meta"]["name"] == "team"
    assert data["meta"]["exported_at"] == WHEN
    assert data["aliases"][0] == {"from": "read_file", "to": "Read", "message": 'say "Read"'}
    assert "description" not in data["meta"]


def test_json_shape():
    data = json.loads(collection.dumps(collection.build_collection(RULES[:1], WHEN), "json"))
    assert data["meta"]["exported_at"] == "2026-11-21T12:00:00Z"
    assert data["aliases"] == [{"from": "read_file", "to": "Read", "message": 'say "Read"'}]


def test_go_tool_files_import_with_dashed_flags_normalised():
    text = """
[meta]
version = 1
exported_at = 2026-02-10T19:00:00Z
count = 2

[[aliases]]
from = "-r"
to = "-R"
tool = "Bash"
param = "command"
command = "scp"
match_kind = "flag"

[[aliases]]
from = "read_file"
to = "Read"
"""
    rules = collection.parse(text, "toml")
    assert [(r.from_name, r.to_name, r.match_kind) for r in rules] == [("r", "R", "flag"), ("read_file", "Read", "")]


@pytest.mark.parametrize(
    "text, message",
    [
        ('[[aliases]]\nfrom = "a"\nto = "b"\n\n[[aliases]]\nfrom = "c"\n', "entry 2: the replacement (TO) of 'c' is empty"),
        ('[[aliases]]\nfrom = "a"\nto = "b"\nmatch_kind = "regex"\ntool = "E"\nparam = "p"\nfrom_x = 1\n', "entry 1: unknown field 'from_x'"),
        ('[[aliases]]\nfrom = "("\nto = "b"\nmatch_kind = "regex"\ntool = "E"\nparam = "p"\n', "entry 1: invalid regex '('"),
        ('[[aliases]]\nfrom = 3\nto = "b"\n', "entry 1: field 'from' must be a string"),
        ("aliases = 3", "not an alias collection"),
        ("[[aliases]\n", "invalid TOML"),
        ('{"aliases": [', "invalid JSON at line 1"),
    ],
)
def test_bad_collections_name_the_problem(text, message):
    with pytest.raises(DpError) as info:
        collection.parse(text)
    assert message in info.value.message
