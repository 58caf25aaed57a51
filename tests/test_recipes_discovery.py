"""Finding recipes and agent definitions, JSON extraction from step output."""

import pytest

from dp.recipes.discovery import (
    AgentNotFound,
    find_recipe,
    is_safe_recipe_name,
    list_recipe_files,
    read_agent_prompt,
    resolve_agent,
    search_roots,
)
from dp.recipes.jsonout import extract_json, parse_output


def test_search_roots_order(tmp_path):
    extra = tmp_path / "extra"
    assert search_roots(tmp_path, [extra, "rel"]) == [
        extra, tmp_path / "rel", tmp_path / "recipes", tmp_path / ".dp" / "recipes"]


@pytest.mark.parametrize("name,safe", [
    ("ci", True), ("ci.yaml", True), ("my-recipe_2", True), ("..", False), ("../x", False),
    ("a/b", False), ("/etc/passwd", False), (".hidden", False), ("a..b", False), ("", False),
])
def test_safe_names(name, safe):
    assert is_safe_recipe_name(name) is safe


@pytest.fixture
def two_roots(tmp_path):
    roots = tmp_path / "first", tmp_path / "second"
    for root in roots:
        root.mkdir()
    return roots


def test_find_recipe_prefers_earlier_roots_and_yaml(two_roots):
    first, second = two_roots
    (second / "ci.yaml").write_text("x")
    (first / "ci.yml").write_text("x")
    assert find_recipe("ci", [first, second]) == (first / "ci.yml").resolve()
    assert find_recipe("ci.yaml", [second]) == (second / "ci.yaml").resolve()
    assert find_recipe("missing", [first, second]) is None
    assert find_recipe("../second/ci", [first]) is None


def test_symlinks_inside_the_root_are_fine_outside_are_not(tmp_path):
    root = tmp_path / "recipes"
    (root / "real").mkdir(parents=True)
    (root / "real" / "r.yaml").write_text("x")
    (root / "inside.yaml").symlink_to(root / "real" / "r.yaml")
    (tmp_path / "secret.yaml").write_text("x")
    (root / "outside.yaml").symlink_to(tmp_path / "secret.yaml")
    assert find_recipe("inside", [root]) == (root / "real" / "r.yaml").resolve()
    assert find_recipe("outside", [root]) is None
    assert [name for name, _ in list_recipe_files([root])] == ["inside"]


def test_list_recipe_files_first_root_wins(tmp_path, two_roots):
    a, b = two_roots
    (a / "x.yaml").write_text("")
    (b / "x.yaml").write_text("")
    (b / "y.yml").write_text("")
    (b / "notes.txt").write_text("")
    assert list_recipe_files([a, b, tmp_path / "missing"]) == [
        ("x", (a / "x.yaml").resolve()), ("y", (b / "y.yml").resolve())]


def test_resolve_agent_namespaces_and_order(tmp_path):
    first, second = tmp_path / "one", tmp_path / "two"
    (first / "ns").mkdir(parents=True)
    second.mkdir()
    (first / "ns" / "rev.md").write_text("ns rev")
    (second / "rev.md").write_text("plain rev")
    assert resolve_agent("rev", [first, second]) == (second / "rev.md").resolve()
    assert resolve_agent("ns:rev", [first, second]) == (first / "ns" / "rev.md").resolve()
    with pytest.raises(AgentNotFound, match="looked for ns/missing.md in"):
        resolve_agent("ns:missing", [first, second])


@pytest.mark.parametrize("reference", ["..", "a/b", "ns:..:x", "x.md", "a b", ":x", ""])
def test_resolve_agent_rejects_unsafe_references(tmp_path, reference):
    with pytest.raises(AgentNotFound, match="is not valid"):
        resolve_agent(reference, [tmp_path])


def test_agent_front_matter_is_split_off(tmp_path):
    path = tmp_path / "a.md"
    path.write_text("---\nname: a\nmodel: haiku\n---\n\nBe brief.\n")
    assert read_agent_prompt(path) == ("Be brief.", {"name": "a", "model": "haiku"})
    path.write_text("No front matter.")
    assert read_agent_prompt(path) == ("No front matter.", {})


def test_oversized_agent_definition_is_refused(tmp_path):
    path = tmp_path / "big.md"
    path.write_text("x" * 200_000)
    with pytest.raises(AgentNotFound, match="larger than 100 KB"):
        read_agent_prompt(path)


@pytest.mark.parametrize("text,value", [
    ('{"a": 1}', {"a": 1}),
    ("  [1, 2]  ", [1, 2]),
    ('Result:\n```json\n{"ok": true}\n```\nbye', {"ok": True}),
    ('```\n["x"]\n```', ["x"]),
    ('I found {"n": {"deep": "}"}} in the logs {"later": 1}', {"n": {"deep": "}"}}),
    ("text [not json} then [3, 4] end", [3, 4]),
    ('prefix {"broken": } then {"good": [1]}', {"good": [1]}),
])
def test_extract_json(text, value):
    assert extract_json(text) == (True, value)


@pytest.mark.parametrize("text", ["no json at all", "{unclosed", "", "```json\nnope\n```"])
def test_extract_json_failures(text):
    assert extract_json(text) == (False, None)


@pytest.mark.parametrize("text,value", [
    ("42", 42), ("true", True), ('{"a": 1}', {"a": 1}), ("hello", "hello"),
    ("  padded \n", "padded"), ("", ""), ("null", None),
])
def test_parse_output(text, value):
    assert parse_output(text) == value
