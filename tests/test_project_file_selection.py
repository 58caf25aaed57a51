"""A project file read from dp's cache selects a call's rules by the cached index: exactly the
rules, in file order, that looking at every row selects (dp.layers.projectfile)."""

import itertools

from dp.layers.projectfile import ProjectFile, _read

ENTRIES = [
    ("wisp", "ephemeral", "Bash", "command", "bd", "flag"),
    ("read_file", "Read", "", "", "", ""),
    ("Bash", "run_shell_command", "", "", "", ""),
    ("grep", "rg", "Bash", "command", "grep", "command"),
    ("foo", "bar", "Bash", "command", "", "literal"),
    ("file_path", "path", "Read", "file_path", "", "literal"),
    ("r", "R", "Bash", "command", "scp", "flag"),
    ("n", "line-number", "Bash", "command", "grep", "flag"),
]


def _entry(from_name, to_name, tool, param, command, kind) -> str:
    fields = {"from": from_name, "to": to_name, "tool": tool, "param": param, "command": command,
              "match_kind": kind}
    return "[[aliases]]\n" + "".join(f'{key} = "{value}"\n' for key, value in fields.items() if value) + "\n"


def test_the_cached_index_selects_what_every_row_selects(tmp_path):
    path = tmp_path / "rules.toml"
    path.write_text("".join(_entry(*entry) for entry in ENTRIES))
    real, sha256, problem, rows, index = _read(str(path))
    assert problem == "" and len(rows) == len(ENTRIES)
    indexed = ProjectFile("project", str(path), real, sha256, rows=rows, index=index)
    scanned = ProjectFile("project", str(path), real, sha256, rows=rows)  # no index: every row looked at
    words = [None, set(), {"bd"}, {"grep", "ls"}, {"scp", "grep", "bd"}, {"nothing"}]
    for tool, chosen in itertools.product(("Bash", "Read", "Write", ""), words):
        assert ([rule.key for rule in indexed.for_call(tool, chosen)]
                == [rule.key for rule in scanned.for_call(tool, chosen)]), (tool, chosen)
    assert [rule.key for rule in indexed.for_call("Bash", {"grep"})] == [
        ("grep", "Bash", "command", "grep", "command"), ("foo", "Bash", "command", "", "literal"),
        ("n", "Bash", "command", "grep", "flag")]
    for name in ("read_file", "Bash", "wisp", "nothing"):
        assert ([rule.to_name for rule in indexed.tool_aliases(name)]
                == [rule.to_name for rule in scanned.tool_aliases(name)]), name
    assert [rule.to_name for rule in indexed.tool_aliases("read_file")] == ["Read"]
