"""dp alias --project edits .dp/rules.toml line by line: every byte it does not mean to change stays."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

RECIPE_TEXT = '''to = """
if [ -f Justfile ]; then just test; fi
[[aliases]]
echo "not a header: inside the script"
"""'''

LAYOUT = f'''# Team rules — reviewed like code.
[meta]
version = 1
name = 'team' # a literal string and a comment

# The recipe below is long.
[[aliases]]
from = "gt mail check"
{RECIPE_TEXT}
tool = "Bash"   # aligned
param = "command"
command = "gt"
match_kind = "recipe"

[[aliases]]
  "from" = "grep"
  to = 'rg'
  tool = "Bash"
  param = "command"
  command = "grep"
  match_kind = "command"
  message = "ripgrep, \\"always\\""
# trailing comment
'''


@pytest.fixture
def repo(tmp_path) -> Path:
    root = tmp_path / "team repo"
    (root / ".git").mkdir(parents=True)
    (root / ".dp").mkdir()
    (root / "node_modules" / ".bin").mkdir(parents=True)
    return root


@pytest.fixture
def project_dp(dp, repo):
    def run(*args, check=True):
        proc = dp(*args, cwd=repo / "node_modules" / ".bin")
        if check:
            assert proc.returncode == 0, proc.stderr
        return proc

    return run


def _rules_file(repo: Path, text: str, newline: str = "\n") -> Path:
    path = repo / ".dp" / "rules.toml"
    path.write_bytes(text.replace("\n", newline).encode())
    return path


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_add_update_and_delete_touch_only_their_lines(project_dp, repo, newline):
    path = _rules_file(repo, LAYOUT, newline)
    project_dp("alias", "--project", "--cmd", "bd", "--flag", "wisp", "ephemeral")
    added = path.read_bytes().decode()
    appended = ("\n[[aliases]]\nfrom = \"wisp\"\nto = \"ephemeral\"\ntool = \"Bash\"\nparam = \"command\"\n"
                "command = \"bd\"\nmatch_kind = \"flag\"\n").replace("\n", newline)
    assert added == LAYOUT.replace("\n", newline) + appended

    project_dp("alias", "--project", "--cmd", "grep", "--replace", "ugrep", "-m", "ugrep now")
    updated = path.read_bytes().decode()
    assert updated == added.replace("  to = 'rg'", '  to = "ugrep"').replace(
        '  message = "ripgrep, \\"always\\""', '  message = "ugrep now"')

    project_dp("alias", "--project", "--recipe", "gt mail check", "gt mail list")
    script = updated.replace(RECIPE_TEXT.replace("\n", newline), 'to = "gt mail list"')
    assert path.read_bytes().decode() == script

    project_dp("alias", "--project", "--delete", "--cmd", "grep", "--replace", "x")
    deleted = path.read_bytes().decode()
    grep_block = script[script.index(newline + "[[aliases]]" + newline + '  "from" = "grep"'):
                        script.index("# trailing comment")]
    assert deleted == script.replace(grep_block, newline)
    project_dp("trust")  # a file dp did not create is the author's to trust, like anyone's
    rows = json.loads(project_dp("aliases", "--json").stdout)
    assert [(row["from_name"], row["source"]) for row in rows] == [("gt mail check", "project"), ("wisp", "project")]


def test_a_multi_line_recipe_is_written_as_lines_a_reviewer_can_read(project_dp, repo):
    path = _rules_file(repo, "[meta]\nversion = 1\n")
    script = 'for f in "$@"; do\n  gt mail read "$f" \\\n    --quiet\ndone\necho """done"""'
    project_dp("alias", "--project", "--recipe", "gt mail all", script)
    text = path.read_text()
    assert 'for f in "$@"; do\n  gt mail read "$f" \\\\\n    --quiet\ndone\n' in text
    project_dp("trust")
    [row] = json.loads(project_dp("aliases", "--json").stdout)
    assert row["to_name"] == script


def test_a_layout_dp_cannot_edit_line_by_line_is_refused_unchanged(project_dp, repo):
    text = ('aliases = [{from = "grep", to = "rg", tool = "Bash", param = "command", '
            'command = "grep", match_kind = "command"}]\n\n[meta]\nversion = 1\n')
    path = _rules_file(repo, text)
    proc = project_dp("alias", "--project", "--cmd", "bd", "--flag", "wisp", "ephemeral", check=False)
    assert proc.returncode == 1 and "cannot change it line by line" in proc.stderr and "edit it by hand" in proc.stderr
    assert path.read_text() == text


def test_a_symlinked_rules_file_is_changed_where_it_lives(project_dp, repo):
    shared = repo / "config" / "dp-rules.toml"
    shared.parent.mkdir()
    shared.write_text("[meta]\nversion = 1\n")
    (repo / ".dp" / "rules.toml").symlink_to("../config/dp-rules.toml")
    project_dp("alias", "--project", "--cmd", "grep", "--replace", "rg")
    assert (repo / ".dp" / "rules.toml").is_symlink()
    assert 'from = "grep"' in shared.read_text()


def test_a_new_project_file_is_created_trusted_for_its_author(project_dp, repo, env):
    project_dp("alias", "--project", "--cmd", "bd", "--flag", "wisp", "ephemeral")
    text = (repo / ".dp" / "rules.toml").read_text()
    assert text.startswith("# Corrections dp applies for everyone working in this repository.\n")
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": str(repo),
               "tool_input": {"command": "bd create --wisp x"}}
    proc = subprocess.run([str(Path(sys.executable).parent / "pave-check")], input=json.dumps(payload),
                          capture_output=True, text=True, env=env, timeout=60)
    assert json.loads(proc.stdout)["hookSpecificOutput"]["updatedInput"]["command"] == "bd create --ephemeral x"
    shown = project_dp("trust", "--show").stdout
    assert "(trusted)" in shown and "line 6: bd: Flag `--wisp` should be `--ephemeral`" in shown
