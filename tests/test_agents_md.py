"""dp.install.agents_md (the Markdown) and dp.install.markers (dp's block inside a user's file)."""

from __future__ import annotations

import pytest

from dp.errors import DpError
from dp.install.agents_md import render, rule_entries
from dp.install.markers import BEGIN, END, with_block, write_block
from dp.rules.model import Rule
from dp.rules.wording import code, recipe_preview
from dp.store import Store

SCRIPT = 'while true; do\n  status=$(gt mol status 2>&1)\n  echo "$status"\n  sleep 5\ndone'

EXPECTED_ALL_KINDS = """\
# Tool Name Corrections

The following tool names are INCORRECT. Use the correct names instead:

- Do NOT call `read_file`. Use `Read` instead.
- Do NOT call `search_files`. Use `Grep` instead. (Grep searches file contents)

# Command Corrections

The following commands, flags and values are INCORRECT. Use the corrected form instead:

## grep

- Use `rg` instead of `grep`

## gt

- Do NOT use `gt await-signal`. It will be expanded to: `while true; do status=$(gt mol status 2>&1) echo "$status" s…` (Poll gt mol status in a loop)

## scp

- Flag `-r` should be `-R` (scp copies directories with -R)
- Flag `--recursive` should be `-R`
- `user@old:` → `user@new:`
- Pattern `host(\\d+)\\.old` → `host$1.new`

## Edit (param: file_path)

- `/old/` → `/new/`
- Pattern `^/tmp/(.*)` → `/scratch/\\1`
"""


def _store_with(tmp_path, rules):
    store = Store.open(tmp_path / "dp.db")
    for rule in rules:
        store.set_rule(rule)
    return store


ALL_KINDS = [
    Rule("r", "R", "Bash", "command", "scp", "flag", "scp copies directories with -R"),
    Rule("^/tmp/(.*)", "/scratch/\\1", "Edit", "file_path", "", "regex"),
    Rule("search_files", "Grep", message="Grep searches file contents"),
    Rule("host(\\d+)\\.old", "host$1.new", "Bash", "command", "scp", "regex"),
    Rule("gt await-signal", SCRIPT, "Bash", "command", "gt", "recipe", "Poll gt mol status in a loop"),
    Rule("user@old:", "user@new:", "Bash", "command", "scp", "literal"),
    Rule("/old/", "/new/", "Edit", "file_path", "", "literal"),
    Rule("grep", "rg", "Bash", "command", "grep", "command"),
    Rule("recursive", "R", "Bash", "command", "scp", "flag"),
    Rule("read_file", "Read"),
]


def test_every_rule_kind_renders_as_expected(tmp_path):
    with _store_with(tmp_path, ALL_KINDS) as store:
        assert render(store.list_rules()) == EXPECTED_ALL_KINDS


def test_output_does_not_depend_on_the_order_unrelated_rules_were_added(tmp_path):
    with _store_with(tmp_path, list(reversed(ALL_KINDS))) as store:
        rendered = render(store.list_rules())
    # Within the scp group the two flag rules keep their own relative order.
    swapped = EXPECTED_ALL_KINDS.replace(
        "- Flag `-r` should be `-R` (scp copies directories with -R)\n- Flag `--recursive` should be `-R`\n",
        "- Flag `--recursive` should be `-R`\n- Flag `-r` should be `-R` (scp copies directories with -R)\n",
    )
    assert rendered == swapped


def test_only_the_sections_that_have_rules_appear(tmp_path):
    with _store_with(
        tmp_path, [Rule("grep", "rg", "Bash", "command", "grep", "command", "ripgrep is installed")]
    ) as store:
        assert render(store.list_rules()) == (
            "# Command Corrections\n\n"
            "The following commands, flags and values are INCORRECT. Use the corrected form instead:\n\n"
            "## grep\n\n"
            "- Use `rg` instead of `grep` (ripgrep is installed)\n"
        )
    assert render([]) == ""


def test_recipe_message_appears_once(tmp_path):
    rule = Rule("bd list --wisp", "bd list | grep -i wisp", "Bash", "command", "bd", "recipe", "no --wisp flag")
    rendered = render([rule])
    assert rendered.count("no --wisp flag") == 1
    assert "It will be expanded to: `bd list | grep -i wisp` (no --wisp flag)" in rendered


def test_recipe_preview_is_sixty_characters_on_one_line():
    assert recipe_preview("echo  hi\n  there\n") == "echo  hi there"
    long = "x" * 59 + "\nyyyy"
    assert recipe_preview(long) == "x" * 59 + " …"
    assert len(recipe_preview("a" * 200)) == 61


def test_code_spans_survive_backticks():
    assert code("plain") == "`plain`"
    assert code("echo `date`") == "`` echo `date` ``"  # CommonMark strips one space each side
    assert code("a``b") == "```a``b```"


def test_json_entries_carry_section_group_and_line():
    entries = rule_entries([Rule("read_file", "Read"), Rule("r", "R", "Bash", "command", "scp", "flag")])
    assert [(e["section"], e["group"], e["kind"]) for e in entries] == [
        ("Tool Name Corrections", None, "alias"),
        ("Command Corrections", "scp", "flag"),
    ]
    assert entries[1]["line"] == "Flag `-r` should be `-R`"
    assert entries[0]["from_name"] == "read_file"


# -- marker blocks -----------------------------------------------------------------


def test_block_in_a_new_file():
    assert with_block(None, "# A\n") == (f"{BEGIN}\n# A\n{END}\n", "created")


def test_block_appended_after_user_text():
    text, action = with_block("# My project\n\nNotes.", "# A\n")
    assert action == "appended"
    assert text == f"# My project\n\nNotes.\n\n{BEGIN}\n# A\n{END}\n"


def test_block_replaced_in_place_leaving_both_sides_intact():
    before, after = "# Mine\n\nkeep me\n\n", "\n\n## Also mine\ntrailing"
    existing = f"{before}{BEGIN}\nold rules\n{END}{after}"
    text, action = with_block(existing, "new rules\n")
    assert action == "replaced"
    assert text == f"{before}{BEGIN}\nnew rules\n{END}{after}"
    again, _ = with_block(text, "new rules\n")
    assert again == text and again.count(BEGIN) == 1


def test_crlf_files_get_crlf_blocks():
    text, _ = with_block("line one\r\nline two\r\n", "# A\n- x\n")
    assert text == f"line one\r\nline two\r\n\r\n{BEGIN}\r\n# A\r\n- x\r\n{END}\r\n"
    assert "\n" not in text.replace("\r\n", "")


@pytest.mark.parametrize(
    "existing",
    [f"{BEGIN}\nno end", f"{END}\n{BEGIN}\n", f"{BEGIN}\na\n{END}\n{BEGIN}\nb\n{END}\n"],
)
def test_unbalanced_markers_are_an_error(existing):
    with pytest.raises(DpError) as caught:
        with_block(existing, "x")
    assert "markers" in caught.value.message


def test_markers_count_only_on_lines_of_their_own():
    # Prose that mentions the markers, and a rule whose text contains one, are not boundaries.
    existing = f"dp keeps its rules between `{BEGIN}` and `{END}`.\n\n{BEGIN}\nold\n{END}\n"
    markdown = f"# Command Corrections\n\n## echo\n\n- `{END}` → `done`\n"
    text, action = with_block(existing, markdown)
    assert action == "replaced"
    assert text.startswith(f"dp keeps its rules between `{BEGIN}` and `{END}`.\n\n{BEGIN}\n# Command")
    again, action = with_block(text, markdown)
    assert (again, action) == (text, "replaced")


def test_crlf_block_is_replaced_keeping_the_line_endings():
    existing = f"top\r\n{BEGIN}\r\nold\r\n{END}\r\nbottom\r\n"
    text, _ = with_block(existing, "new\n")
    assert text == f"top\r\n{BEGIN}\r\nnew\r\n{END}\r\nbottom\r\n"


def test_write_block_twice_and_unchanged(tmp_path):
    path = tmp_path / "AGENTS.md"
    path.write_text("# Agents\n")
    assert write_block(path, "# A\n") == "appended"
    first = path.read_bytes()
    assert write_block(path, "# A\n") == "unchanged"
    assert path.read_bytes() == first
    assert write_block(path, "# B\n") == "replaced"
    assert path.read_text() == f"# Agents\n\n{BEGIN}\n# B\n{END}\n"


def test_write_block_without_markdown_empties_a_block_and_creates_nothing(tmp_path):
    path = tmp_path / "AGENTS.md"
    assert write_block(path, "") == "unchanged" and not path.exists()
    path.write_text("# Agents\n")
    assert write_block(path, "") == "unchanged" and path.read_text() == "# Agents\n"
    write_block(path, "# A\n")
    assert write_block(path, "") == "replaced"
    assert path.read_text() == f"# Agents\n\n{BEGIN}\n{END}\n"


def test_write_block_refuses_non_utf8(tmp_path):
    path = tmp_path / "AGENTS.md"
    path.write_bytes(b"\xff\xfe junk")
    with pytest.raises(DpError):
        write_block(path, "# A\n")
    assert path.read_bytes() == b"\xff\xfe junk"
