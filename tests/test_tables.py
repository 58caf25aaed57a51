"""Translation tables: the shipped TOML files load, the format is checked, the JSON cache is used."""

from __future__ import annotations

import json
import os

import pytest

import dp.rules.tables
from dp.rules.tables.pairs import TABLE_DIR, TableError, load_tables, table_for, validate


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "dp"


def test_shipped_tables_load_and_name_their_pair():
    tables = load_tables()
    assert {("grep", "rg"), ("find", "fd")} <= set(tables)
    for (source, target), table in tables.items():
        assert os.path.basename(table.path) == f"{source}-to-{target}.toml"
        assert table.about


def test_aliases_resolve_to_the_flag_they_name():
    grep = table_for("grep", "rg")
    assert grep.flag("--ignore-case") == grep.flag("-i") == {"to": ["-i"]}
    assert grep.flag("-h")["to"] == ["-I"]  # rg -h is --help: the table says what it means
    assert grep.flag("--no-such-flag") is None
    assert table_for("grep", "ack") is None


def test_tables_are_read_from_the_json_cache_once_compiled(tmp_path, private_cache, monkeypatch):
    directory = tmp_path / "tables"
    directory.mkdir()
    table_file = directory / "npm-to-pnpm.toml"
    table_file.write_text(
        'source = "npm"\ntarget = "pnpm"\n[flags]\n"-g" = { to = ["--global"] }\n'
        '[subcommands.install]\nto = ["add"]\nflags = { "-D" = { to = ["-D"] }, "--save-dev" = "-D" }\n'
    )
    table = table_for("npm", "pnpm", str(directory))
    assert table.flag("--save-dev", "install") == {"to": ["-D"]}
    assert table.flag("-g", "install") == {"to": ["--global"]}
    [cache] = list(private_cache.glob("table-npm-to-pnpm-*.json"))
    data = json.loads(cache.read_text())
    data["about"] = "from the cache"
    cache.write_text(json.dumps(data))
    monkeypatch.setattr(dp.rules.tables, "_loaded", {})  # a new hook process: no table read or made yet
    monkeypatch.setattr(dp.rules.tables.pairs, "_made", {})
    assert table_for("npm", "pnpm", str(directory)).about == "from the cache"
    # Editing the TOML file changes its stamp: the cache is rebuilt.
    table_file.write_text('source = "npm"\ntarget = "pnpm"\nabout = "edited"\n')
    monkeypatch.setattr(dp.rules.tables, "_loaded", {})
    assert load_tables(str(directory))[("npm", "pnpm")].about == "edited"


def test_names_that_cannot_be_table_files_have_no_table():
    assert table_for("grep", "../grep") is None
    assert table_for("grep", "rg --hidden") is None


@pytest.mark.parametrize(
    "data, message",
    [
        ({"target": "rg"}, "'source' must be a non-empty string"),
        ({"source": "a", "target": "b", "style": "regex"}, "style must be one of"),
        ({"source": "a", "target": "b", "flags": {"-x": "-y"}}, "refers to '-y'"),
        ({"source": "a", "target": "b", "flags": {"-x": "-y", "-y": "-x"}}, "refers to"),
        ({"source": "a", "target": "b", "flags": {"-x": {"to": "-y"}}}, "needs 'to'"),
        ({"source": "a", "target": "b", "flags": {"-x": {"to": [], "typo": 1}}}, "keys outside"),
        ({"source": "a", "target": "b", "refuse": [{"when": ["m"]}]}, "needs a 'reason'"),
        ({"source": "a", "target": "b", "adjust": [{"when": "m"}]}, "lists of marks"),
        ({"source": "a", "target": "b", "subcommands": {"i": {"to": "add"}}}, "subcommand 'i'"),
        ({"source": "a", "target": "b", "flags": {"-x": {"choices": {"v": {"to": []}}}}}, "needs value = true"),
        ({"source": "a", "target": "b", "flags": {"-x": {"value": True, "choices": {"v": "-z"}}}}, "refers to '-z'"),
        ({"source": "a", "target": "b", "flags": {"-x": {"value": True, "choices": {"v": {"sets": []}}}}},
         "every choice needs 'to'"),
    ],
)
def test_malformed_tables_are_refused_with_the_reason(data, message):
    with pytest.raises(TableError, match=message):
        validate(data)


def test_a_broken_toml_file_names_the_file(tmp_path):
    (tmp_path / "a-to-b.toml").write_text("source = \n")
    with pytest.raises(TableError, match="a-to-b.toml"):
        load_tables(str(tmp_path))


def test_missing_directory_has_no_tables(tmp_path):
    assert load_tables(str(tmp_path / "none")) == {}
    assert os.path.isdir(TABLE_DIR)


def test_a_choice_names_another_flag_or_holds_its_own_entry():
    table = validate({"source": "grep", "target": "rg", "flags": {
        "-a": {"to": ["-a"], "sets": ["text"]},
        "--binary-files": {"value": True, "choices": {"text": "-a", "binary": {"to": []}}},
    }})
    assert table["flags"]["--binary-files"]["choices"] == {"text": {"to": ["-a"], "sets": ["text"]}, "binary": {"to": []}}
