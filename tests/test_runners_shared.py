"""The readers every ecosystem module shares (dp.runners.base), and deno's task table.

Project files are written by people and tools, not by dp: JSON with
comments, tables where a list was expected, a tool that prints a warning
before its JSON or fails. Each reader either gives the data or one DpError
naming the file; nothing here may crash ``dp tasks`` on a project it does
not understand.
"""

from __future__ import annotations

import json
import shlex

import pytest

from dp.errors import DpError
from dp.runners import deno
from dp.runners.base import (
    MAX_PROJECT_FILE_BYTES,
    first_existing,
    read_json,
    read_jsonc,
    read_text,
    read_toml,
    table,
    tool_listing,
)


@pytest.mark.parametrize("text, data", [
    ('{"a": 1, // trailing comment\n "b": 2}', {"a": 1, "b": 2}),
    ('/* block\n comment */ {"a": [1, 2,],}', {"a": [1, 2]}),
    ('{"url": "http://example.com/x", "glob": "src/**/*.ts"}', {"url": "http://example.com/x", "glob": "src/**/*.ts"}),
    ('{"quote": "a \\" // not a comment", "n": 1}', {"quote": 'a " // not a comment', "n": 1}),
    ('{"comma": ",}", "list": [",]",]}', {"comma": ",}", "list": [",]"]}),
    ('{"a": 1,\n\t\r\n}', {"a": 1}),
    ('{"a": 1} // comment at the end without a newline', {"a": 1}),
    ('{"a": 1} /* unterminated block comment', {"a": 1}),
])
def test_jsonc_drops_comments_and_trailing_commas_but_never_inside_strings(tmp_path, text, data):
    (tmp_path / "deno.jsonc").write_text(text)
    assert read_jsonc(tmp_path / "deno.jsonc") == data


@pytest.mark.parametrize("reader, name, text", [
    (read_json, "package.json", '{"scripts": {'),
    (read_jsonc, "deno.jsonc", '{"tasks": [}'),
    (read_toml, "pyproject.toml", "[tool.poe\n"),
])
def test_a_broken_project_file_is_named_with_its_path(tmp_path, reader, name, text):
    (tmp_path / name).write_text(text)
    with pytest.raises(DpError) as caught:
        reader(tmp_path / name)
    assert caught.value.message.startswith(f"parsing {name}: ")
    assert caught.value.message.endswith(f"({tmp_path / name})")


def test_project_files_are_bounded_and_decoded_forgivingly(tmp_path):
    (tmp_path / "Makefile").write_bytes(b"all:\n\techo caf\xe9\n")
    assert read_text(tmp_path / "Makefile") == "all:\n\techo caf\ufffd\n"
    with pytest.raises(DpError, match="^cannot read .*missing.json: it does not exist$"):
        read_text(tmp_path / "missing.json")
    (tmp_path / "huge.json").write_bytes(b" " * (MAX_PROJECT_FILE_BYTES + 1))
    with pytest.raises(DpError, match=f"dp reads at most {MAX_PROJECT_FILE_BYTES} bytes"):
        read_json(tmp_path / "huge.json")


@pytest.mark.parametrize("data, keys, expected", [
    ({"tool": {"poe": {"tasks": {"t": 1}}}}, ("tool", "poe", "tasks"), {"t": 1}),
    ({"tool": {"poe": ["not", "a", "table"]}}, ("tool", "poe", "tasks"), {}),
    ({"tool": "text"}, ("tool", "poe"), {}),
    ([1, 2], ("tool",), {}),
    (None, ("tool",), {}),
    ({"tool": {"poe": None}}, ("tool", "poe"), {}),
])
def test_table_walks_only_through_tables(data, keys, expected):
    assert table(data, *keys) == expected


def test_first_existing_takes_the_first_regular_file_in_order(tmp_path):
    (tmp_path / "justfile").mkdir()  # a directory is not the file
    (tmp_path / ".justfile").write_text("")
    (tmp_path / "Justfile").write_text("")
    assert first_existing(tmp_path, ["justfile", ".justfile", "Justfile"]) == tmp_path / ".justfile"
    assert first_existing(tmp_path, ["nothing"]) is None


def sh(script: str) -> list[str]:
    return ["sh", "-c", script]


def test_a_tool_listing_may_follow_warnings(tmp_path):
    listing = tool_listing(sh('echo "warning: old version" >&2; echo \'{"recipes": {"a": 1}}\''),
                           tmp_path, tmp_path / "justfile")
    assert listing == {"recipes": {"a": 1}}


@pytest.mark.parametrize("script, problem", [
    ("echo 'error: justfile:3: unknown setting' >&2; exit 1", "error: justfile:3: unknown setting"),
    ("exit 3", "exit code 3"),
    ("echo '[1, 2]'", "its listing is not a JSON object"),
    ("echo '{not json'", "unreadable listing (Expecting property name enclosed in double quotes"),
])
def test_a_tool_listing_that_fails_says_why_in_one_line(tmp_path, script, problem):
    argv = sh(script)
    with pytest.raises(DpError) as caught:
        tool_listing(argv, tmp_path, tmp_path / "Taskfile.yml")
    assert caught.value.message.startswith(f"sh cannot read {tmp_path / 'Taskfile.yml'}: {problem}"), \
        shlex.join(argv)


# -- deno -----------------------------------------------------------------------


def test_deno_tasks_as_strings_objects_and_dependency_lists(tmp_path):
    (tmp_path / "deno.jsonc").write_text(json.dumps({"tasks": {
        "dev": "deno run --watch main.ts",
        "build": {"command": "deno compile main.ts", "description": "Build the binary"},
        "check": {"command": "deno check ."},
        "all": {"dependencies": ["build", "check"]},
        "broken": {"nothing": True},
        "number": 3,
    }}))
    [runner] = deno.detect(tmp_path, tmp_path)
    assert runner.reason == "deno.jsonc found: tasks run with deno task"
    assert {task.name: task.description for task in runner.tasks} == {
        "all": "runs build, check", "build": "Build the binary", "check": "deno check .",
        "dev": "deno run --watch main.ts"}
    assert runner.task("dev").command(["--port", "8000"]) == ["deno", "task", "dev", "--port", "8000"]


def test_deno_json_wins_over_deno_jsonc_and_a_config_without_tasks_still_names_deno(tmp_path):
    (tmp_path / "deno.json").write_text('{"imports": {}}')
    (tmp_path / "deno.jsonc").write_text('{"tasks": {"x": "echo"}}')
    [runner] = deno.detect(tmp_path, tmp_path)
    assert runner.reason.startswith("deno.json found") and runner.tasks == []


@pytest.mark.parametrize("text", ["[]", '"tasks"', "null"])
def test_a_deno_config_that_is_not_an_object_is_an_error(tmp_path, text):
    (tmp_path / "deno.json").write_text(text)
    with pytest.raises(DpError) as caught:
        deno.detect(tmp_path, tmp_path)
    assert caught.value.message == f"parsing deno.json: expected a JSON object ({tmp_path / 'deno.json'})"
