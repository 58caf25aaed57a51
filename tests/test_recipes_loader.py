"""dp.recipes.loader: a recipe file's bytes to YAML data, or one RecipeError that says why not.

test_recipes_parser.py covers bombs, depth and huge text; these are the
file-level and YAML-level refusals in between: a path that is not a readable
regular UTF-8 file, the exact size boundary, YAML that is syntactically
wrong (with the line and column, and the quoting hint for ``key: a: b``),
duplicate keys (where they are) and self-referencing aliases.
"""

from __future__ import annotations

import pytest

from dp.recipes.loader import EXIT_INVALID, MAX_RECIPE_BYTES, RecipeError, load_yaml, read_recipe_text


def refused(call) -> RecipeError:
    with pytest.raises(RecipeError) as caught:
        call()
    assert caught.value.exit_code == EXIT_INVALID
    return caught.value


def test_a_missing_recipe_file_is_named(tmp_path):
    error = refused(lambda: read_recipe_text(tmp_path / "ci.yaml"))
    assert error.message == f"cannot read {tmp_path / 'ci.yaml'}: it does not exist"


@pytest.mark.parametrize("extra, accepted", [(0, True), (1, False)])
def test_the_file_size_limit_is_exactly_one_megabyte(tmp_path, extra, accepted):
    path = tmp_path / "big.yaml"
    path.write_bytes(b"#" * (MAX_RECIPE_BYTES + extra))
    if accepted:
        assert len(read_recipe_text(path)) == MAX_RECIPE_BYTES
    else:
        assert refused(lambda: read_recipe_text(path)).message == (
            f"{path} is larger than 1 MB; recipes are limited to 1 MB")


def test_a_file_that_is_not_utf8_names_the_first_bad_byte(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("name: caf\u00e9\n".encode("latin-1"))
    assert refused(lambda: read_recipe_text(path)).message == f"{path} is not UTF-8 text (byte 9)"


@pytest.mark.parametrize("text, message", [
    ("name: x\nsteps:\n  - command: echo a: b\n",
     "ci.yaml: invalid YAML: mapping values are not allowed here (line 3, column 20); quote the value or "
     "use a '|' block when it contains ': '"),
    ("name: [unclosed\n", "ci.yaml: invalid YAML: expected ',' or ']', but got '<stream end>' (line 2, column 1)"),
    ("name: x\nname: y\n", "ci.yaml: invalid YAML: duplicate key 'name' (line 2, column 1)"),
    ("steps:\n  - {id: a, id: b}\n", "ci.yaml: invalid YAML: duplicate key 'id' (line 2, column 13)"),
    ("a: &x [*x]\n", "ci.yaml: YAML alias refers to itself (recursive structure)"),
])
def test_yaml_mistakes_are_one_line_with_where_they_are(text, message):
    assert refused(lambda: load_yaml(text, "ci.yaml")).message.startswith(message)


def test_errors_are_single_lines_even_when_yaml_s_own_are_not():
    error = refused(lambda: load_yaml("a:\n  - b\n c: d\n", "ci.yaml"))
    assert "\n" not in error.message and error.message.startswith("ci.yaml: invalid YAML: ")


@pytest.mark.parametrize("text, value", [
    ("when: 2026-01-31\n", {"when": "2026-01-31"}),
    ("when: 2026-01-31 10:00:00\n", {"when": "2026-01-31 10:00:00"}),
    ("n: 007\nx: 1.5\nb: yes\nnothing: ~\n", {"n": 7, "x": 1.5, "b": True, "nothing": None}),
    ("", None),
    ("# only a comment\n", None),
])
def test_values_keep_to_json_types_and_dates_stay_text(text, value):
    assert load_yaml(text, "ci.yaml") == value


def test_the_text_size_limit_also_holds_for_text_that_never_was_a_file():
    assert refused(lambda: load_yaml("#" * (MAX_RECIPE_BYTES + 1), "stdin")).message == (
        "stdin is larger than 1 MB; recipes are limited to 1 MB")
